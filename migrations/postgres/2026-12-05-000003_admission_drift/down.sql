DROP TABLE drift_policies;
DROP TABLE drift_actions;
DROP TABLE drift_reports;
DROP TABLE admission_transitions;
