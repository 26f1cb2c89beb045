DROP TABLE evaluations;
