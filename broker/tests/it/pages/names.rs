//! Names made only of dots (`.`, `..`) cannot be addressed in a URL: WHATWG
//! URL parsers (browsers, `reqwest`) remove such path segments, so neither
//! a page nor an API resource of them could be reached. The broker refuses
//! them where names enter.

use serde_json::json;

use crate::support::each_backend;

#[test]
fn a_name_or_version_of_dots_only_is_refused_where_it_enters() {
    each_backend(|app| {
        let reply = app.post("/pacticipants", &json!({"name": ".."}));
        assert_eq!(reply.status, 400, "{}", reply.text);
        assert!(reply.text.contains("only dots"), "{}", reply.text);
        let reply = app.post(
            "/contracts/publish",
            &json!({"pacticipantName": "Web", "pacticipantVersionNumber": ".",
                    "contracts": []}),
        );
        assert_eq!(reply.status, 400, "{}", reply.text);
        assert!(reply.text.contains("only dots"), "{}", reply.text);
        assert_eq!(
            app.get("/pacticipants/Web").status,
            404,
            "nothing half-written"
        );
    });
}
