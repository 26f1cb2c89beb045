DROP TABLE admission_holds;
ALTER TABLE environments DROP COLUMN admission_stage;
