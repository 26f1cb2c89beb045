DROP TABLE version_declarations;
DROP TABLE declaration_contents;
