//! `page.rs`: a page's tools, its cursor, the room, what is no page.
use std::time::Duration;

use super::*;

fn received(content_type: &str, body: &str) -> Received {
    Received {
        status: 200,
        headers: vec![("content-type".into(), content_type.into())],
        body: body.as_bytes().to_vec(),
        ack: Duration::ZERO,
        total: Duration::ZERO,
    }
}

const ROOM: Room = Room {
    tools: 10,
    bytes: 1024,
};

#[test]
fn a_page_keeps_each_tool_as_canonical_text_and_its_cursor() {
    let body = r#"{"result": {"nextCursor": "c2", "tools": [{"name": "b", "x": 1.0}, {"a": [], "name": "a"}]}, "id": 3, "jsonrpc": "2.0"}"#;
    let Page::Read { tools, next } = page(&received("application/json", body), 3, ROOM) else {
        panic!("a page");
    };
    assert_eq!(next.as_deref(), Some("c2"));
    let names: Vec<_> = tools.iter().map(|t| t.name.as_deref()).collect();
    assert_eq!(names, [Some("b"), Some("a")]);
    assert_eq!(&*tools[0].text, r#"{"name":"b","x":1}"#);
}

#[test]
fn on_an_event_stream_only_the_response_to_the_request_is_the_page() {
    let body = "data: {\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"roots/list\",\"result\":{\"tools\":[1]}}\n\n\
                data: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"tools\":[2]}}\n\n\
                data: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[3]}}\n\n";
    let Page::Read { tools, next } = page(&received("text/event-stream", body), 3, ROOM) else {
        panic!("a page");
    };
    assert_eq!((tools.len(), &*tools[0].text, next), (1, "3", None));
}

#[test]
fn a_page_past_the_room_stops_where_it_is_exceeded() {
    let tools: Vec<String> = (0..11).map(|i| format!("{{\"name\":\"t{i}\"}}")).collect();
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{}]}}}}"#,
        tools.join(",")
    );
    let got = page(&received("application/json", &body), 1, ROOM);
    assert!(
        matches!(&got, Page::Over(how) if how == "more than 10 tools"),
        "{got:?}"
    );
    let small = Room {
        tools: 10,
        bytes: 20,
    };
    let got = page(&received("application/json", &body), 1, small);
    assert!(matches!(got, Page::Over(_)), "{got:?}");
}

#[test]
fn an_error_or_a_result_without_tools_is_no_page() {
    let error =
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"no","data":[1,2]}}"#;
    let got = page(&received("application/json", error), 1, ROOM);
    assert!(
        matches!(&got, Page::Refused(why) if why == "tools/list answered error -32601 `no`"),
        "{got:?}"
    );
    let none = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    let got = page(&received("application/json", none), 1, ROOM);
    assert!(
        matches!(&got, Page::Refused(why) if why.contains("no tools array")),
        "{got:?}"
    );
    let other = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#;
    assert!(matches!(
        page(&received("application/json", other), 1, ROOM),
        Page::Refused(_)
    ));
}
