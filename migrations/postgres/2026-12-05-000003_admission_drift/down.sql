DROP TABLE drift_reports;
DROP TABLE admission_transitions;
