//! Integration tests of accord-dsl.

mod spec_files;
