DROP TABLE admission_evidence;
DROP TABLE verification_evidence;
