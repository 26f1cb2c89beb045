DROP TABLE labels;
