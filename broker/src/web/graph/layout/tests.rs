//! The layout's promises, for both shapes: no two boxes overlap, every box
//! is inside the drawing, no line ends inside a box (arrowheads sit outside
//! names), names are whole up to the shape's limit, the phone's drawing is
//! no wider than a phone.

use super::*;

fn app(name: &str, verdict: Option<Verdict>) -> App {
    App {
        name: name.to_owned(),
        url: format!("/ui/pacticipants/{name}"),
        marked: false,
        verdict,
    }
}

fn link(consumer: usize, provider: usize, verdict: Verdict) -> Link {
    Link {
        consumer,
        provider,
        verdict,
        title: String::new(),
        url: String::new(),
    }
}

/// The demo: two consumers of a tool server, one of them also of an agent.
fn demo() -> (Vec<App>, Vec<Link>) {
    let apps = [
        "ops-console",
        "plan-tools",
        "planning-agent",
        "release-orchestrator",
    ]
    .map(|n| app(n, Some(Verdict::Fail)))
    .to_vec();
    let links = vec![
        link(0, 1, Verdict::Fail),
        link(3, 1, Verdict::Fail),
        link(3, 2, Verdict::Pending),
    ];
    (apps, links)
}

/// A hub with `n` consumers with long names, and a few lone applications.
fn star(n: usize) -> (Vec<App>, Vec<Link>) {
    let mut apps = vec![app("the-central-planning-service", Some(Verdict::Pass))];
    let mut links = Vec::new();
    for i in 0..n {
        apps.push(app(&format!("consumer-with-a-long-name-{i:02}"), None));
        links.push(link(i + 1, 0, Verdict::Pass));
    }
    for i in 0..5 {
        apps.push(app(&format!("lone-{i}"), None));
    }
    (apps, links)
}

fn inside(n: &DrawnNode, (x, y): (f64, f64)) -> bool {
    (x - n.x).abs() < n.w / 2.0 - 0.01 && (y - n.y).abs() < n.h / 2.0 - 0.01
}

fn check(apps: &[App], links: &[Link], shape: Shape) -> Drawing {
    let d = draw(apps, links, &Lone::default(), |n| n.to_owned(), shape);
    for (i, a) in d.nodes.iter().enumerate() {
        assert!(
            a.x - a.w / 2.0 >= 0.0 && a.x + a.w / 2.0 <= d.width,
            "{a:?}"
        );
        assert!(
            a.y - a.h / 2.0 >= 0.0 && a.y + a.h / 2.0 <= d.height,
            "{a:?}"
        );
        for b in &d.nodes[i + 1..] {
            let apart =
                (a.x - b.x).abs() >= (a.w + b.w) / 2.0 || (a.y - b.y).abs() >= (a.h + b.h) / 2.0;
            assert!(apart, "{} overlaps {}", a.label, b.label);
        }
    }
    for e in &d.edges {
        for n in &d.nodes {
            assert!(!inside(n, (e.x1, e.y1)), "{e:?} starts inside {}", n.label);
            assert!(!inside(n, (e.x2, e.y2)), "{e:?} ends inside {}", n.label);
        }
    }
    d
}

#[test]
fn boxes_never_overlap_and_lines_end_outside_them() {
    for shape in [WIDE, PHONE] {
        let (apps, links) = demo();
        let d = check(&apps, &links, shape);
        assert_eq!(d.nodes.len(), 4);
        assert_eq!(d.edges.len(), 3);
        let labels: Vec<&str> = d.nodes.iter().map(|n| n.label.as_str()).collect();
        assert!(labels.contains(&"release-orchestrator"), "{labels:?}");
        for n in [1, 2, 7, 50] {
            let (apps, links) = star(n);
            check(&apps, &links, shape);
        }
    }
}

#[test]
fn a_small_network_spreads_over_the_width_and_the_phone_drawing_fits_a_phone() {
    let (apps, links) = demo();
    let wide = check(&apps, &links, WIDE);
    let left = wide
        .nodes
        .iter()
        .map(|n| n.x - n.w / 2.0)
        .fold(f64::MAX, f64::min);
    let right = wide
        .nodes
        .iter()
        .map(|n| n.x + n.w / 2.0)
        .fold(0.0, f64::max);
    assert!(right - left >= 600.0, "{left} … {right}");
    for (apps, links) in [demo(), star(50)] {
        let phone = check(&apps, &links, PHONE);
        assert!(phone.width <= 400.0, "{}", phone.width);
    }
}

#[test]
fn nodes_carry_their_worst_verdict_and_long_names_are_whole_in_their_title() {
    let (mut apps, links) = star(2);
    apps[1].name = "a".repeat(40);
    let d = check(&apps, &links, PHONE);
    let hub = &d.nodes[0];
    assert_eq!(hub.class, "app pass");
    assert_eq!(hub.mark, "✓");
    let long = d
        .nodes
        .iter()
        .find(|n| n.name == apps[1].name)
        .expect("node");
    assert_eq!(long.label, format!("{}…{}", "a".repeat(10), "a".repeat(10)));
    let (mut shared, links) = star(2);
    shared[1].name = "consumer-service-with-long-name-01".to_owned();
    shared[2].name = "consumer-service-with-long-name-02".to_owned();
    let d2 = check(&shared, &links, PHONE);
    let labels: Vec<&str> = d2.nodes.iter().map(|n| n.label.as_str()).collect();
    assert!(labels.contains(&"consumer-s…ng-name-01"), "{labels:?}");
    assert!(
        labels.contains(&"consumer-s…ng-name-02"),
        "names apart: {labels:?}"
    );
    assert!(long.title.starts_with(&apps[1].name));
    assert_eq!(long.class, "app none");
    assert_eq!(long.mark, "");
}
