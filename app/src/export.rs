//! Exporting a stored match as JSON or CSV: shared by `tableside log export` and the window's
//! history screen, so both write the same documents.
//!
//! - JSON: one document `{"match": …, "header": …, "entries": [{seq, at_ms, text, undone, input}]}`.
//! - CSV: one row per entry, `seq,at_ms,kind,text,undone,input_json` (RFC 4180 quoting).
//!
//! Each document is read in one snapshot of the store ([`Store::read`]): a match being played
//! while it is exported comes out as it stood at one commit, its record's entry count equal to
//! the entries written, and marked `"in_progress": true`.

use crate::session::{Stored, load_stored};
use crate::store::{MatchId, MatchRecord, MatchStatus, Store, StoredEntry};
use anyhow::Result;
use cards::matches::LogLine;
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
        "in_progress": r.status == MatchStatus::Open,
        "created_ms": r.created_ms,
        "updated_ms": r.updated_ms,
        "entries": r.entries,
        "players": header.get("players").map(|ps| ps.as_array().map(|a| a.iter().filter_map(|p| p.get("name").cloned()).collect::<Vec<_>>())),
        "outcome": outcome,
    })
}

/// The whole export of one stored match, as text ending in a newline.
pub fn export_match(store: &Store, id: MatchId, format: Format) -> Result<String> {
    let (stored, entries) = read_match(store, id)?;
    let lines = stored.game.log();
    let record = &stored.record;
    Ok(match format {
        Format::Json => {
            let docs: Vec<Value> = lines
                .iter()
                .zip(&entries)
                .map(|(l, e)| entry_json(l, e))
                .collect();
            let header: Value = serde_json::from_str(&record.header_json)?;
            serde_json::to_string_pretty(
                &json!({"match": record_json(record), "header": header, "entries": docs}),
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

/// The `tableside log show --json` document of one stored match: its record and its log lines
/// (undone and overridden entries marked), read in one snapshot.
pub fn show_json(store: &Store, id: MatchId) -> Result<Value> {
    let (stored, entries) = read_match(store, id)?;
    let docs: Vec<Value> = stored
        .game
        .log()
        .iter()
        .zip(&entries)
        .map(|(l, e)| {
            let mut doc = entry_json(l, e);
            doc["overridden"] = json!(l.overridden);
            doc
        })
        .collect();
    Ok(json!({"match": record_json(&stored.record), "log": docs}))
}

/// A stored match replayed and its entries, read in one snapshot (a match being written is
/// seen as it was at one moment, never half of one and half of the next).
fn read_match(store: &Store, id: MatchId) -> Result<(Stored, Vec<StoredEntry>)> {
    store.read(|store| {
        let stored = load_stored(store, id)?;
        let entries = store.entries(id)?;
        Ok::<_, anyhow::Error>((stored, entries))
    })
}

/// One log line with its stored entry, as exported: seq, time, text, undone, the input.
fn entry_json(line: &LogLine, entry: &StoredEntry) -> Value {
    json!({
        "seq": line.seq,
        "at_ms": entry.at_ms,
        "text": line.text,
        "undone": line.undone,
        "input": serde_json::from_str::<Value>(&entry.input_json).unwrap_or_default(),
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
