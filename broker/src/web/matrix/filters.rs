//! The matrix page's query string: `consumer`, `provider`, `branch`, `tag`,
//! `environment`, `latest`, `page`, `per_page`, and for the grid `view` and
//! `col_page` — parsed once; bad values are a 400 naming the parameter. A
//! repeated parameter counts once (the last wins).

use crate::error::BrokerError;
use crate::matrix::query::RackQuery;
use crate::matrix::selector::{Target, VersionSpec};
use crate::names::PacticipantName;
use crate::web::q;

/// The highest page number accepted (far past any real matrix).
const MAX_PAGE: u64 = 1_000_000;
/// Rows per page unless `per_page` says otherwise.
pub const DEFAULT_PER_PAGE: usize = 50;
/// The most rows a page shows.
const MAX_PER_PAGE: u64 = 1_000;

/// How the matrix of one consumer and one provider is laid out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum View {
    /// One row per (consumer version, provider version) pair: the default.
    #[default]
    Rows,
    /// Consumer versions × provider versions (`view=grid`).
    Grid,
}

impl View {
    fn parse(v: Option<&str>) -> Result<View, BrokerError> {
        match v.map(str::trim) {
            None | Some("" | "rows") => Ok(View::Rows),
            Some("grid") => Ok(View::Grid),
            Some(_) => Err(BrokerError::bad_field("view", "must be rows or grid")),
        }
    }
}

/// What the matrix page shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filters {
    pub consumer: Option<PacticipantName>,
    pub provider: Option<PacticipantName>,
    pub branch: Option<String>,
    pub tag: Option<String>,
    pub environment: Option<String>,
    /// Only the newest verification per consumer version and provider (`latestby=cvp`).
    pub latest: bool,
    /// 1-based.
    pub page: usize,
    /// Rows per page, 1 to 1,000 (the rows view only).
    pub per_page: usize,
    /// Rows or grid; the grid needs both a consumer and a provider.
    pub view: View,
    /// The grid's page of provider versions (columns), 1-based.
    pub col_page: usize,
}

fn non_blank(v: Option<&str>) -> Option<String> {
    v.map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

fn name(q: &RackQuery, field: &str) -> Result<Option<PacticipantName>, BrokerError> {
    non_blank(q.scalar(field))
        .map(|n| {
            PacticipantName::parse(&n).map_err(|e| BrokerError::bad_field(field, e.to_string()))
        })
        .transpose()
}

/// A whole number from 1 to `max` in parameter `field` (absent or blank: `default`).
pub fn number(
    field: &str,
    v: Option<&str>,
    max: u64,
    default: usize,
) -> Result<usize, BrokerError> {
    let Some(text) = non_blank(v) else {
        return Ok(default);
    };
    match text.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => {
            usize::try_from(n).map_err(|_| BrokerError::bad_field(field, "is too large"))
        }
        _ => Err(BrokerError::bad_field(
            field,
            format!("must be a whole number from 1 to {max}"),
        )),
    }
}

impl Filters {
    /// Parses a raw query string.
    pub fn parse(raw: &str) -> Result<Filters, BrokerError> {
        let q = RackQuery::parse(raw);
        let filters = Filters {
            consumer: name(&q, "consumer")?,
            provider: name(&q, "provider")?,
            branch: non_blank(q.scalar("branch")),
            tag: non_blank(q.scalar("tag")),
            environment: non_blank(q.scalar("environment")),
            latest: match q.scalar("latest").map(str::trim) {
                None | Some("" | "false") => false,
                Some("true") => true,
                Some(_) => return Err(BrokerError::bad_field("latest", "must be true or false")),
            },
            page: number("page", q.scalar("page"), MAX_PAGE, 1)?,
            per_page: number(
                "per_page",
                q.scalar("per_page"),
                MAX_PER_PAGE,
                DEFAULT_PER_PAGE,
            )?,
            view: View::parse(q.scalar("view"))?,
            col_page: number("col_page", q.scalar("col_page"), MAX_PAGE, 1)?,
        };
        let kinds = [&filters.branch, &filters.tag, &filters.environment];
        if kinds.iter().filter(|k| k.is_some()).count() > 1 {
            return Err(BrokerError::bad_field(
                "branch",
                "give at most one of branch, tag and environment",
            ));
        }
        Ok(filters)
    }

    /// Which versions of each side are shown.
    pub fn spec(&self) -> VersionSpec {
        match (&self.branch, &self.tag, &self.environment) {
            (Some(branch), ..) => VersionSpec::Branch {
                branch: branch.clone(),
                latest: false,
            },
            (_, Some(tag), _) => VersionSpec::Tag {
                tag: tag.clone(),
                latest: false,
            },
            (_, _, Some(env)) => VersionSpec::Environment(env.clone()),
            _ => VersionSpec::Any,
        }
    }

    /// The same version filter for the pacticipants not named.
    pub fn target(&self) -> Option<Target> {
        match self.spec() {
            VersionSpec::Branch { branch, latest } => Some(Target::Branch { branch, latest }),
            VersionSpec::Tag { tag, latest } => Some(Target::Tag { tag, latest }),
            VersionSpec::Environment(env) => Some(Target::Environment(env)),
            _ => None,
        }
    }

    /// Both a consumer and a provider are chosen, so the grid can be shown.
    pub fn is_pair(&self) -> bool {
        self.consumer.is_some() && self.provider.is_some()
    }

    /// The page's URL with these filters, this view and column page, on page `page`.
    pub fn href(&self, page: usize) -> String {
        self.href_at(self.view, page, self.col_page)
    }

    /// The page's URL with these filters in `view`, on page `page` and
    /// (in the grid) column page `col_page`.
    pub fn href_at(&self, view: View, page: usize, col_page: usize) -> String {
        let mut parts = self.filter_parts();
        if view == View::Grid {
            parts.push("view=grid".to_owned());
        }
        if page > 1 {
            parts.push(format!("page={page}"));
        }
        if view == View::Grid && col_page > 1 {
            parts.push(format!("col_page={col_page}"));
        }
        if parts.is_empty() {
            "/ui/matrix".to_owned()
        } else {
            format!("/ui/matrix?{}", parts.join("&"))
        }
    }

    /// `key=value` of every filter set (no view, no page).
    fn filter_parts(&self) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        let names = [("consumer", &self.consumer), ("provider", &self.provider)];
        for (key, value) in names {
            if let Some(v) = value {
                parts.push(format!("{key}={}", q(v.as_str())));
            }
        }
        let texts = [
            ("branch", &self.branch),
            ("tag", &self.tag),
            ("environment", &self.environment),
        ];
        for (key, value) in texts {
            if let Some(v) = value {
                parts.push(format!("{key}={}", q(v)));
            }
        }
        if self.latest {
            parts.push("latest=true".to_owned());
        }
        if self.per_page != DEFAULT_PER_PAGE {
            parts.push(format!("per_page={}", self.per_page));
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_round_trip_through_their_url() {
        let f = Filters::parse(
            "consumer=Order+Service&provider=Bar&environment=prod&latest=true&per_page=7&page=3",
        )
        .expect("parses");
        assert_eq!(
            f.consumer.as_ref().map(PacticipantName::as_str),
            Some("Order Service")
        );
        assert_eq!(f.page, 3);
        assert_eq!(f.spec(), VersionSpec::Environment("prod".into()));
        let again = Filters::parse(f.href(3).trim_start_matches("/ui/matrix?")).expect("parses");
        assert_eq!(again, f);
        let default = Filters::parse("").expect("parses");
        assert_eq!(default.href(1), "/ui/matrix");
        assert_eq!(default.per_page, DEFAULT_PER_PAGE);
        let f = Filters::parse("per_page=1000&page=2").expect("parses");
        assert_eq!(f.href(3), "/ui/matrix?per_page=1000&page=3");
    }

    #[test]
    fn the_grid_keeps_its_view_and_column_page_in_its_url() {
        let f = Filters::parse("consumer=Foo&provider=Bar&tag=beta&view=grid&page=2&col_page=3")
            .expect("parses");
        assert_eq!((f.view, f.col_page), (View::Grid, 3));
        assert!(f.is_pair());
        let href = f.href(2);
        assert_eq!(
            href,
            "/ui/matrix?consumer=Foo&provider=Bar&tag=beta&view=grid&page=2&col_page=3"
        );
        let again = Filters::parse(href.trim_start_matches("/ui/matrix?")).expect("parses");
        assert_eq!(again, f);
        assert_eq!(
            f.href_at(View::Rows, 1, 3),
            "/ui/matrix?consumer=Foo&provider=Bar&tag=beta"
        );
        assert_eq!(Filters::parse("view=rows").expect("rows").view, View::Rows);
    }

    #[test]
    fn bad_pages_and_mixed_version_filters_are_refused() {
        for raw in [
            "page=0",
            "page=-1",
            "page=abc",
            "page=99999999999999999999",
            "page=1000001",
            "per_page=0",
            "per_page=1001",
            "branch=main&tag=prod",
            "latest=maybe",
            "view=table",
            "view=grid&col_page=0",
            "col_page=abc",
            "col_page=1000001",
        ] {
            let err = Filters::parse(raw).expect_err(raw);
            assert_eq!(err.body()["status"], 400, "{raw}");
        }
        assert_eq!(Filters::parse("page=1&page=2").expect("last wins").page, 2);
        assert_eq!(Filters::parse("page=").expect("blank").page, 1);
    }
}
