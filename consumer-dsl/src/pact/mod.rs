//! Reading Pact files (V1–V4, upgraded to the V4 model) and writing V4.
//!
//! PLACEHOLDER: being written (issue 2, model part).
//!
//! Layout: `parts` reads a request, response or message of any specification
//! version (the shapes the pact-specification test cases use); the file-level
//! reader and the V4 writer sit beside it.

pub mod parts;
