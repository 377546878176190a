//! `tableside catalogue …`: the card library — check a catalogue file, add it, list, show,
//! export and remove sets.

use super::{EXIT_REFUSED, ExitError, db_path, open_if_present};
use crate::session::now_ms;
use crate::store::Store;
use crate::store::library::{
    Change, LibraryError, SetEntry, VersionInfo, builtin_entries, parse_catalogue,
    read_catalogue_file, short,
};
use anyhow::{Context, Result, anyhow};
use cards::catalogue::Catalogue;
use cards::catalogue::csv::{CsvSet, name_fits_a_cell, write_csv};
use cards::core::GameId;
use clap::{Args, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// A catalogue file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FileFormat {
    /// The TOML catalogue format (docs/catalogue.md).
    Toml,
    /// One row per card, the header naming the fields (docs/catalogue.md, "From a spreadsheet").
    Csv,
}

/// Where a catalogue file comes from, and for a CSV the set its rows make up.
#[derive(Debug, Args)]
pub struct SourceArgs {
    /// The catalogue file: TOML, or CSV from a spreadsheet.
    pub file: PathBuf,
    /// The file's format (default: `.csv` files are CSV, any other TOML).
    #[arg(long, value_enum)]
    pub format: Option<FileFormat>,
    /// CSV: the game of the cards (jaken, junk-ken, rockman-exe, space-junk, yomi).
    #[arg(long)]
    pub game: Option<String>,
    /// CSV: the set id that decks will name, e.g. `aki-jaken`.
    #[arg(long = "set", value_name = "ID")]
    pub set_id: Option<String>,
    /// CSV: the set's name (also the Japanese name unless --name-ja is given; default: the id).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// CSV: the set's Japanese name.
    #[arg(long, value_name = "NAME")]
    pub name_ja: Option<String>,
    /// CSV: a note shown with the set.
    #[arg(long)]
    pub note: Option<String>,
}

/// `tableside catalogue …`
#[derive(Debug, Subcommand)]
pub enum CatalogueAction {
    /// Loads a catalogue file and reports its first problem with file, line (or row) and field.
    Check(SourceArgs),
    /// Checks a catalogue file and adds it to the card library; an edited set becomes a new
    /// version, and the matches already played keep theirs.
    Add(SourceArgs),
    /// Lists the library's sets: game, id, name, cards, version, demo or not, and who uses it.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Shows one set: its versions, ready-made decks, registered decks, matches and cards.
    Show {
        /// The set id.
        set: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Writes a set as a file a friend can `add` (TOML, or CSV for a spreadsheet).
    Export {
        /// The set id.
        set: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = FileFormat::Toml)]
        format: FileFormat,
        /// A version other than the current one: its number or (the start of) its hash.
        #[arg(long, value_name = "N|HASH")]
        version: Option<String>,
        /// Write to this file instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Removes a set and its versions; refused while a registered deck or a stored match uses it.
    Remove {
        /// The set id.
        set: String,
    },
}

/// A library problem, in English and Japanese, with exit status 2 (a refused input).
fn refused(e: &LibraryError) -> anyhow::Error {
    if let LibraryError::Store(store) = e {
        return anyhow!("{store}");
    }
    ExitError {
        code: EXIT_REFUSED,
        message: format!("{e}\n  {}", e.ja()),
    }
    .into()
}

fn words(en: &str, ja: &str) -> anyhow::Error {
    ExitError {
        code: EXIT_REFUSED,
        message: format!("{en}\n  {ja}"),
    }
    .into()
}

fn parse_game(text: &str) -> Result<GameId> {
    GameId::parse(text).ok_or_else(|| {
        let all = GameId::ALL.map(GameId::as_str).join(", ");
        words(
            &format!("unknown game `{text}` (expected one of: {all})"),
            &format!("不明なゲーム `{text}` です(次のどれか: {all})"),
        )
    })
}

/// The catalogue of a file: read (size cap, UTF-8), checked, and its TOML text to store.
fn load_source(args: &SourceArgs) -> Result<(Catalogue, String)> {
    let is_csv = match args.format {
        Some(f) => f == FileFormat::Csv,
        None => args
            .file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv")),
    };
    let set = if is_csv {
        let (Some(game), Some(id)) = (&args.game, &args.set_id) else {
            return Err(words(
                &format!(
                    "{}: a CSV file holds cards only: say which game and set they are with --game GAME --set ID [--name NAME]",
                    args.file.display()
                ),
                &format!(
                    "{}: CSV ファイルにはカードしかありません。--game GAME --set ID [--name 名前] でゲームとセットを指定してください",
                    args.file.display()
                ),
            ));
        };
        let name = args.name.as_deref().unwrap_or(id);
        let mut set = CsvSet::new(
            parse_game(game)?,
            id,
            name,
            args.name_ja.as_deref().unwrap_or(""),
        );
        set.note = args.note.clone().unwrap_or_default();
        Some(set)
    } else {
        if args.game.is_some()
            || args.set_id.is_some()
            || args.name.is_some()
            || args.name_ja.is_some()
            || args.note.is_some()
        {
            return Err(words(
                &format!(
                    "{}: --game, --set, --name, --name-ja and --note are for CSV files; a TOML catalogue names its game and set itself",
                    args.file.display()
                ),
                &format!(
                    "{}: --game、--set、--name、--name-ja、--note は CSV ファイル用です。TOML のカタログはゲームとセットを自分で指定します",
                    args.file.display()
                ),
            ));
        }
        None
    };
    let text = read_catalogue_file(&args.file).map_err(|e| refused(&e))?;
    parse_catalogue(&args.file.display().to_string(), &text, set.as_ref()).map_err(|e| refused(&e))
}

fn summary(cat: &Catalogue) -> String {
    format!(
        "{} set “{}” ({} / {}): {} cards, {} ready-made decks{}",
        cat.game,
        cat.set.id,
        cat.set.name_ja,
        cat.set.name_en,
        cat.cards.len(),
        cat.decks.len(),
        if cat.set.demo {
            " (a demo set made for Tableside)"
        } else {
            ""
        }
    )
}

/// Runs `tableside catalogue …`.
pub fn catalogue(cli: &super::Cli, action: &CatalogueAction) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match action {
        CatalogueAction::Check(args) => {
            let (cat, _) = load_source(args)?;
            writeln!(out, "{}: {}.", args.file.display(), summary(&cat))?;
        }
        CatalogueAction::Add(args) => {
            let (cat, text) = load_source(args)?;
            let mut store = Store::open(&db_path(cli)?)?;
            let source = args.file.file_name().map_or_else(
                || args.file.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            let added = store
                .add_catalogue(&cat, &text, &source, now_ms())
                .map_err(|e| refused(&e))?;
            let version = format!("version {} ({})", added.number, short(&added.version));
            match added.change {
                Change::New => writeln!(out, "Added {}, {version}.", summary(&cat))?,
                Change::NewVersion { previous } => writeln!(
                    out,
                    "Updated {}: now {version}; new matches use it, matches played with version {previous} keep theirs.",
                    summary(&cat)
                )?,
                Change::Restored => writeln!(
                    out,
                    "{}: {version}, stored before, is the current version again.",
                    summary(&cat)
                )?,
                Change::Unchanged => writeln!(
                    out,
                    "{}: already in the library as {version}; nothing changed.",
                    summary(&cat)
                )?,
            }
        }
        CatalogueAction::List { json } => {
            let sets = library(cli)?;
            if *json {
                serde_json::to_writer_pretty(&mut out, &sets)?;
                writeln!(out)?;
            } else {
                for s in &sets {
                    writeln!(out, "{}", list_line(s))?;
                }
            }
        }
        CatalogueAction::Show { set, json } => show(cli, &mut out, set, *json)?,
        CatalogueAction::Export {
            set,
            format,
            version,
            out: file,
        } => {
            let (game, text) = match open_if_present(cli)? {
                Some(store) => {
                    let version = pick_version(&store, set, version.as_deref())?;
                    let (game, _, text) =
                        store.catalogue_text(&version).map_err(|e| refused(&e))?;
                    (game, text)
                }
                // No database yet: the demo sets it will start with are exported as built in.
                None => builtin_text(set, version.as_deref())?,
            };
            let body = match format {
                FileFormat::Toml => text,
                FileFormat::Csv => {
                    let cat = Catalogue::load(set, &text).map_err(|e| anyhow!("{e}"))?;
                    let unfit = cat
                        .decks
                        .iter()
                        .filter(|d| d.name != d.id && !name_fits_a_cell(&d.id, &d.name))
                        .count();
                    if unfit > 0 {
                        eprintln!(
                            "tableside: note: the names of {unfit} deck(s) hold a `;` or spaces at an end and cannot stand in a CSV cell; they are named by their ids there, and in full in the TOML export\n  注意: {unfit} 個のデッキの名前は `;` や端の空白を含むため CSV のセルに書けません。CSV ではIDで呼ばれます(TOML の書き出しには名前がそのまま入ります)"
                        );
                    }
                    write_csv(game, &text).map_err(|e| anyhow!("{e}"))?
                }
            };
            match file {
                Some(p) => std::fs::write(p, body)
                    .with_context(|| format!("cannot write {}", p.display()))?,
                None => out.write_all(body.as_bytes())?,
            }
        }
        CatalogueAction::Remove { set } => {
            let mut store = Store::open(&db_path(cli)?)?;
            let removed = store.remove_catalogue(set).map_err(|e| refused(&e))?;
            writeln!(
                out,
                "Removed {} set “{}” and its {} version(s).",
                removed.game, removed.set_id, removed.versions
            )?;
        }
    }
    Ok(())
}

fn no_library(set: &str) -> anyhow::Error {
    refused(&LibraryError::UnknownSet {
        set_id: set.to_owned(),
    })
}

/// The library's sets; without a database yet, the embedded demo sets a new one starts with.
fn library(cli: &super::Cli) -> Result<Vec<SetEntry>> {
    match open_if_present(cli)? {
        Some(store) => Ok(store.library()?),
        None => Ok(builtin_entries()),
    }
}

fn list_line(s: &SetEntry) -> String {
    let kind = if s.builtin {
        "demo (built in)"
    } else if s.demo {
        "demo"
    } else {
        "own cards"
    };
    let mut used = Vec::new();
    if !s.registered.is_empty() {
        used.push(format!("{} registered deck(s)", s.registered.len()));
    }
    if !s.matches.is_empty() {
        used.push(format!("{} match(es)", s.matches.len()));
    }
    let used = if used.is_empty() {
        "unused".to_owned()
    } else {
        used.join(", ")
    };
    format!(
        "{:<11} {:<20} {:>5} cards  v{} {}  {:<15}  {}  — {} / {}",
        s.game.as_str(),
        s.set_id,
        s.cards,
        s.number,
        short(&s.version),
        kind,
        used,
        s.name_ja,
        s.name_en
    )
}

/// The version asked for: the current one, a number, or a hash prefix.
fn pick_version(store: &Store, set: &str, wanted: Option<&str>) -> Result<String> {
    let versions = store.versions(set).map_err(|e| refused(&e))?;
    let found = match wanted {
        None => versions.iter().find(|v| v.current),
        Some(w) => versions.iter().find(|v| {
            w.parse::<u32>().is_ok_and(|n| n == v.number)
                || (w.len() >= 4 && v.version.starts_with(w))
        }),
    };
    found
        .map(|v| v.version.clone())
        .ok_or_else(|| no_version(set, wanted.unwrap_or("current")))
}

/// A built-in demo set's text (game, text) when `wanted` names its version (its number or the
/// start of its hash) or none, before any database exists.
fn builtin_text(set: &str, wanted: Option<&str>) -> Result<(GameId, String)> {
    let entry = builtin_entries()
        .into_iter()
        .find(|e| e.set_id == set)
        .ok_or_else(|| no_library(set))?;
    if let Some(w) = wanted
        && !(w.parse::<u32>().is_ok_and(|n| n == entry.number)
            || (w.len() >= 4 && entry.version.starts_with(w)))
    {
        return Err(no_version(set, w));
    }
    cards::catalogue::BUILTIN
        .iter()
        .find_map(|(file, text)| {
            Catalogue::load(file, text)
                .ok()
                .filter(|c| c.set.id == set)
                .map(|c| (c.game, (*text).to_owned()))
        })
        .ok_or_else(|| no_library(set))
}

fn no_version(set: &str, w: &str) -> anyhow::Error {
    words(
        &format!("set `{set}` has no version `{w}` (`tableside catalogue show {set}` lists them)"),
        &format!(
            "セット `{set}` に版 `{w}` はありません(`tableside catalogue show {set}` で一覧できます)"
        ),
    )
}

fn show(cli: &super::Cli, out: &mut impl Write, set: &str, json: bool) -> Result<()> {
    let (entry, versions, cat) = match open_if_present(cli)? {
        Some(store) => {
            let entry = store
                .library()?
                .into_iter()
                .find(|s| s.set_id == set)
                .ok_or_else(|| no_library(set))?;
            let versions = store.versions(set).map_err(|e| refused(&e))?;
            let cat = store
                .catalogue_at(&entry.version)
                .map_err(|e| refused(&e))?;
            (entry, versions, cat)
        }
        // No database yet: the demo sets a new one starts with, as built in.
        None => {
            let entry = builtin_entries()
                .into_iter()
                .find(|e| e.set_id == set)
                .ok_or_else(|| no_library(set))?;
            let (_, text) = builtin_text(set, None)?;
            let cat = Catalogue::load(set, &text).map_err(|e| anyhow!("{e}"))?;
            let versions = vec![VersionInfo {
                version: entry.version.clone(),
                number: entry.number,
                cards: entry.cards,
                decks: entry.decks,
                source: "embedded".to_owned(),
                added_ms: 0,
                current: true,
                matches: Vec::new(),
            }];
            (entry, versions, cat)
        }
    };
    if json {
        let doc = serde_json::json!({
            "set": entry,
            "versions": versions,
            "ready_made_decks": cat.decks,
            "cards": cat.cards.iter().map(|c| serde_json::json!({
                "id": c.id, "name_ja": c.name_ja, "name_en": c.name_en,
            })).collect::<Vec<_>>(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(());
    }
    writeln!(out, "{}", list_line(&entry))?;
    writeln!(out, "versions:")?;
    for v in &versions {
        let mark = if v.current { " (current)" } else { "" };
        let played = if v.matches.is_empty() {
            String::new()
        } else {
            let ids: Vec<String> = v.matches.iter().map(|m| format!("#{m}")).collect();
            format!(", played in {}", ids.join(" "))
        };
        writeln!(
            out,
            "  v{} {}{mark}: {} cards, from {}{played}",
            v.number,
            short(&v.version),
            v.cards,
            v.source
        )?;
    }
    if !cat.decks.is_empty() {
        writeln!(out, "ready-made decks:")?;
        for d in &cat.decks {
            writeln!(out, "  {} — {} ({} cards)", d.id, d.name, d.cards.len())?;
        }
    }
    if !entry.registered.is_empty() {
        writeln!(out, "registered decks: {}", entry.registered.join(", "))?;
    }
    writeln!(out, "cards:")?;
    for c in &cat.cards {
        writeln!(out, "  {:<18} {} / {}", c.id, c.name_ja, c.name_en)?;
    }
    Ok(())
}
