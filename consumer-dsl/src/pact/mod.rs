//! Reading Pact files (V1–V4, upgraded to the V4 model) and writing V4.
//!
//! PLACEHOLDER: being written (issue 2, model part).
