//! Message pacts, V3 `messages` and V4 `Asynchronous/Messages`.
