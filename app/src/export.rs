//! Exporting a stored match as JSON or CSV: shared by `tableside log export` and the window's
//! history screen, so both write the same documents.
//!
//! - JSON: one document `{"match": …, "header": …, "entries": [{seq, at_ms, text, undone, input}]}`.
//! - CSV: one row per entry, `seq,at_ms,kind,text,undone,input_json` (RFC 4180 quoting).

use crate::session::load_match;
use crate::store::{MatchId, MatchRecord, Store};
use anyhow::Result;
use serde_json::{Value, json};

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON document: header, outcome and entries.
    Json,
    /// One row per entry: seq, time, kind, text, undone, input JSON.
    Csv,
}

impl Format {
    /// The file extension (`json`, `csv`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Csv => "csv",
        }
    }
}

/// A stored match's record as JSON: id, game, status, times, entry count, players, outcome.
pub fn record_json(r: &MatchRecord) -> Value {
    let header: Value = serde_json::from_str(&r.header_json).unwrap_or(Value::Null);
    let outcome: Value = r
        .outcome_json
        .as_deref()
        .and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or(Value::Null);
    json!({
        "id": r.id.0,
        "game": r.game,
        "status": r.status.as_str(),
        "created_ms": r.created_ms,
        "updated_ms": r.updated_ms,
        "entries": r.entries,
        "players": header.get("players").map(|ps| ps.as_array().map(|a| a.iter().filter_map(|p| p.get("name").cloned()).collect::<Vec<_>>())),
        "outcome": outcome,
    })
}

/// The whole export of one stored match, as text ending in a newline.
pub fn export_match(store: &Store, id: MatchId, format: Format) -> Result<String> {
    let m = load_match(store, id)?;
    let entries = store.entries(id)?;
    let lines = m.log();
    let record = store.get(id)?;
    Ok(match format {
        Format::Json => {
            let docs: Vec<Value> = lines
                .iter()
                .zip(&entries)
                .map(|(l, e)| {
                    json!({
                        "seq": l.seq,
                        "at_ms": e.at_ms,
                        "text": l.text,
                        "undone": l.undone,
                        "input": serde_json::from_str::<Value>(&e.input_json).unwrap_or_default(),
                    })
                })
                .collect();
            let header: Value = serde_json::from_str(&record.header_json)?;
            serde_json::to_string_pretty(
                &json!({"match": record_json(&record), "header": header, "entries": docs}),
            )? + "\n"
        }
        Format::Csv => {
            let mut s = String::from("seq,at_ms,kind,text,undone,input_json\n");
            for (l, e) in lines.iter().zip(&entries) {
                let kind = serde_json::from_str::<Value>(&e.input_json)
                    .ok()
                    .and_then(|v| v.get("input").and_then(|k| k.as_str()).map(str::to_owned))
                    .unwrap_or_default();
                s.push_str(&format!(
                    "{},{},{},{},{},{}\n",
                    l.seq,
                    e.at_ms,
                    csv_field(&kind),
                    csv_field(&l.text),
                    l.undone,
                    csv_field(&e.input_json)
                ));
            }
            s
        }
    })
}

/// Quotes a CSV field (RFC 4180).
pub fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_what_needs_it() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(Format::Csv.extension(), "csv");
    }
}
