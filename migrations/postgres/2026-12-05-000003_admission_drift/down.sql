DROP TABLE admission_transitions;
