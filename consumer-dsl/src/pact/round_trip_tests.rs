//! Property: any contract the model can hold reads back unchanged from its
//! V4 form (read(write(c)) == c).

use proptest::prelude::*;
use serde_json::{Map, Value};

use crate::model::{
    Body, BodyContent, Contract, Headers, HttpInteraction, HttpRequest, HttpResponse, Interaction,
    InteractionMeta, Message, MessageInteraction, Pacticipant, ProviderState,
};
use crate::pact::{read_contract, write_contract};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-zA-Z0-9 <{\"]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn extra() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map("x[A-Z][a-z]{1,5}", json_value(), 0..2)
        .prop_map(|m| m.into_iter().collect())
}

fn body() -> impl Strategy<Value = Body> {
    prop_oneof![
        Just(Body::Missing),
        Just(Body::Null),
        (
            json_value(),
            prop::option::of(Just("application/json".to_string()))
        )
            .prop_map(|(v, ct)| Body::Present {
                content: BodyContent::Json(v),
                content_type: ct
            }),
        "[ -~]{0,20}".prop_map(|t| Body::text(t, Some("text/plain"))),
        prop::collection::vec(any::<u8>(), 0..16).prop_map(|b| Body::Present {
            content: BodyContent::Bytes(b),
            content_type: Some("application/octet-stream".into()),
        }),
    ]
}

fn multimap() -> impl Strategy<Value = Option<Headers>> {
    prop::option::of(
        prop::collection::btree_map(
            "[A-Za-z-]{1,8}",
            prop::collection::vec("[ -~]{0,6}", 1..3),
            0..3,
        )
        .prop_map(|m| m.into_iter().collect()),
    )
}

fn meta() -> impl Strategy<Value = InteractionMeta> {
    let state = (
        "[a-z ]{1,10}",
        prop::collection::btree_map("[a-z]{1,4}", json_value(), 0..2),
    )
        .prop_map(|(name, p)| ProviderState {
            name,
            params: p.into_iter().collect(),
            extra: Default::default(),
        });
    (
        "[a-z ]{0,12}",
        prop::option::of("[a-f0-9]{8}"),
        any::<bool>(),
        prop::collection::vec(state, 0..3),
        prop::option::of(json_value().prop_filter("comments are not null", |v| !v.is_null())),
        extra(),
    )
        .prop_map(
            |(description, key, pending, provider_states, comments, extra)| InteractionMeta {
                description,
                key,
                pending,
                provider_states,
                comments,
                extra,
                ..InteractionMeta::default()
            },
        )
}

fn http() -> impl Strategy<Value = Interaction> {
    let request = (
        "GET|POST|PUT|DELETE",
        "/[a-z0-9/]{0,12}",
        multimap(),
        multimap(),
        body(),
        extra(),
    )
        .prop_map(|(method, path, query, headers, body, extra)| HttpRequest {
            method,
            path,
            query,
            headers,
            body,
            extra,
            ..HttpRequest::default()
        });
    let response =
        (100u16..600, multimap(), body(), extra()).prop_map(|(status, headers, body, extra)| {
            HttpResponse {
                status,
                headers,
                body,
                extra,
                ..HttpResponse::default()
            }
        });
    (meta(), request, response).prop_map(|(meta, request, response)| {
        Interaction::Http(HttpInteraction {
            meta,
            request,
            response,
        })
    })
}

fn message() -> impl Strategy<Value = Interaction> {
    let metadata = prop::collection::btree_map("[a-z]{1,5}", json_value(), 0..3);
    (meta(), body(), metadata).prop_map(|(mut meta, contents, metadata)| {
        // An asynchronous message's unknown attributes live on the message.
        let extra = std::mem::take(&mut meta.extra);
        let message = Message {
            contents,
            metadata: metadata.into_iter().collect(),
            extra,
            ..Message::default()
        };
        Interaction::AsyncMessage(MessageInteraction { meta, message })
    })
}

fn contract() -> impl Strategy<Value = Contract> {
    let interactions = prop::collection::vec(prop_oneof![http(), message()], 0..4);
    ("[a-z]{1,8}", "[a-z]{1,8}", interactions, extra()).prop_map(|(c, p, interactions, extra)| {
        Contract {
            consumer: Pacticipant {
                name: c,
                extra: Map::new(),
            },
            provider: Pacticipant {
                name: p,
                extra: Map::new(),
            },
            interactions,
            extra,
            ..Contract::default()
        }
    })
}

proptest! {
    #[test]
    fn any_contract_reads_back_unchanged_from_its_v4_form(c in contract()) {
        let text = write_contract(&c);
        let back = read_contract(&text, "generated.json");
        prop_assert!(back.is_ok(), "not re-readable: {:?}\n{}", back.err(), text);
        prop_assert_eq!(back.ok(), Some(c), "{}", text);
    }

    #[test]
    fn arbitrary_text_never_makes_the_reader_panic(text in "[\\[\\]{}\",:a-z0-9 ]{0,64}") {
        let _ = read_contract(&text, "fuzz.json");
    }
}
