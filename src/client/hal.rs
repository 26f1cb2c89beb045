//! Reading HAL bodies: a relation's href, and `_embedded` lists printed
//! as JSON or as a table.

use serde_json::Value;

/// The href of relation `rel` in a HAL body; for an array relation, the
/// member whose `name` is `name`.
pub fn link<'a>(body: &'a Value, rel: &str, name: Option<&str>) -> Option<&'a str> {
    let link = body.get("_links")?.get(rel)?;
    match (link, name) {
        (Value::Array(list), Some(name)) => list
            .iter()
            .find(|l| l.get("name").and_then(Value::as_str) == Some(name))?
            .get("href")?
            .as_str(),
        (Value::Array(list), None) => list.first()?.get("href")?.as_str(),
        (single, _) => single.get("href")?.as_str(),
    }
}

/// Prints the `_embedded[key]` list of a HAL body: the whole body as pretty
/// JSON when `output` is `json`, else a tab-separated table under `header`
/// with the cells `row` gives for each item.
pub fn print_list(
    body: &Value,
    output: &str,
    key: &str,
    header: &str,
    row: impl Fn(&Value) -> Vec<String>,
) -> anyhow::Result<()> {
    if output == "json" {
        println!("{}", serde_json::to_string_pretty(body)?);
        return Ok(());
    }
    let empty = Vec::new();
    let list = body["_embedded"][key].as_array().unwrap_or(&empty);
    println!("{header}");
    for item in list {
        println!("{}", row(item).join("\t"));
    }
    Ok(())
}

/// The string field `key` of `item`, `""` when absent.
pub fn text_field(item: &Value, key: &str) -> String {
    item[key].as_str().unwrap_or("").to_owned()
}
