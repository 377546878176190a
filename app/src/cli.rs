//! The command line: `tableside` (the window), `play`, `replay`, `log list|show|export`,
//! `deck check|register|list|unregister`, `catalogue check|add|list|show|export|remove`, `tags`,
//! `track`.

mod decks;
mod library;
mod tags;
mod track;

pub use decks::{DeckAction, catalogue_of, load_deck};
pub use library::CatalogueAction;
pub use tags::TagsArgs;
pub use track::TrackArgs;

use crate::session::{
    Session, SubmitError, catalogue_for, library_catalogue, load_stored, replay_stored,
};
use crate::store::{MatchId, Store, default_db_path};
use anyhow::{Context, Result, anyhow, bail};
use cards::core::{GameId, Outcome};
use cards::matches::{AnyMatch, outcome_sentence};
use cards::script::{Script, ScriptError, ScriptErrorKind, Step, StepResult, check_step, run_step};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Tableside: follows a card game at a real table.
#[derive(Debug, Parser)]
#[command(name = "tableside", version, about)]
pub struct Cli {
    /// Folder for the match database (default: $TABLESIDE_DATA_DIR, else the config file's
    /// `[data] dir`, else the platform data folder).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// The config file (default: $TABLESIDE_CONFIG, else tableside.toml in the platform config
    /// folder; a missing file means the defaults).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Full-screen touch kiosk mode (for the window).
    #[arg(long)]
    pub kiosk: bool,
    /// Dice tower for the window: a serial port path (e.g. the pty `tower-sim` prints), or
    /// `auto` to find it by handshake among the ports present.
    #[arg(long, global = true, value_name = "PATH|auto")]
    pub tower: Option<crate::dice::TowerChoice>,
    /// The tower prints `ROLL d6 4` lines (line mode, PROTOCOL.md section 9) instead of
    /// speaking the framed protocol; needs a port path, from `--tower` or the config file.
    #[arg(long, global = true)]
    pub line: bool,
    /// What to do; without one, the window opens.
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// The dice tower to use: `--tower` (framed, or line mode with `--line`), else the config
    /// file's `tower` in its `tower_mode` (line mode too with `--line`).
    ///
    /// # Errors
    /// [`crate::dice::TowerModeError::LineNeedsPath`] for line mode with `auto`.
    pub fn tower_choice(
        &self,
        config: &crate::config::Config,
    ) -> Result<Option<crate::dice::TowerChoice>, crate::dice::TowerModeError> {
        use crate::dice::TowerMode;
        let line = |t: crate::dice::TowerChoice| t.with_mode(TowerMode::Line);
        match (&self.tower, self.line) {
            (Some(t), true) => line(t.clone()).map(Some),
            (Some(t), false) => Ok(Some(t.clone())),
            (None, true) => config.tower().map(line).transpose(),
            (None, false) => Ok(config.tower()),
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Runs a match script headless, stores the match and prints the resulting state.
    Play {
        /// The game (must match the script's `game` line).
        #[arg(long)]
        game: String,
        /// The match script (docs/match-script.md).
        #[arg(long)]
        script: PathBuf,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
        /// Print `committed <seq>` to stderr after each input is durable.
        #[arg(long)]
        progress: bool,
        /// Do not store the match.
        #[arg(long)]
        no_store: bool,
        /// A JUNK-KEN draft's next battle: goes on from this stored match, whose battle is over
        /// (its holdings and leftover piles, the winner's exchange first). The script names the
        /// same players, without decks, and no `draft_pool`.
        #[arg(long, value_name = "MATCH")]
        next_battle_of: Option<i64>,
    },
    /// Re-derives a stored match from its log and prints its state.
    Replay {
        /// The match id (default: the newest match).
        id: Option<i64>,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Lists, shows or exports stored matches.
    Log {
        /// What to do with the log.
        #[command(subcommand)]
        action: LogAction,
    },
    /// Checks, registers, lists or removes decks (a registered copy tells whose card it is).
    Deck {
        /// What to do.
        #[command(subcommand)]
        action: DeckAction,
    },
    /// The card library: checks, adds, lists, shows, exports or removes card sets.
    Catalogue {
        /// What to do.
        #[command(subcommand)]
        action: CatalogueAction,
    },
    /// Writes a printable sheet of QR stickers for a deck's copies, and the mat corner markers.
    Tags(TagsArgs),
    /// Reads a directory of camera frames and prints the cards seen on the mat as JSON lines.
    Track(TrackArgs),
    /// Shows where the config file is, or checks it.
    Config {
        /// What to do.
        #[command(subcommand)]
        action: ConfigAction,
    },
}

/// `tableside config …`
#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Loads the config file and prints the settings in effect, or its first problem.
    Check,
    /// Prints the config file's path.
    Path,
}

/// `tableside log …`
#[derive(Debug, Subcommand)]
pub enum LogAction {
    /// One line per stored match, newest first.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The log of one match, undone entries marked.
    Show {
        /// The match id.
        id: i64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Exports one match's entries.
    Export {
        /// The match id.
        id: i64,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Json)]
        format: ExportFormat,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// One JSON document: header, outcome and entries.
    Json,
    /// One row per entry: seq, time, kind, text, undone, input JSON.
    Csv,
}

/// Exit status for a refused move or a failed check in a script.
pub const EXIT_REFUSED: i32 = 2;

/// An error that carries its own exit status.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ExitError {
    /// Exit status.
    pub code: i32,
    /// What to print.
    pub message: String,
}

fn config(cli: &Cli, action: &ConfigAction) -> Result<()> {
    let path = crate::config::config_path(cli.config.as_deref())
        .ok_or_else(|| anyhow!("no config folder is known: pass --config FILE"))?;
    match action {
        ConfigAction::Path => println!("{}", path.display()),
        ConfigAction::Check => {
            let config = crate::config::Config::load(&path).map_err(|e| ExitError {
                code: EXIT_REFUSED,
                message: e.to_string(),
            })?;
            let state = if path.exists() {
                "is valid"
            } else {
                "does not exist: the defaults apply"
            };
            println!("{} {state}. Settings in effect:", path.display());
            print!("{}", toml::to_string_pretty(&config)?);
        }
    }
    Ok(())
}

fn db_path(cli: &Cli) -> Result<PathBuf> {
    Ok(default_db_path(cli.data_dir.as_deref())?)
}

/// Runs a subcommand (not the window).
pub fn run(cli: &Cli, command: &Command) -> Result<()> {
    match command {
        Command::Play {
            game,
            script,
            json,
            progress,
            no_store,
            next_battle_of,
        } => play(
            cli,
            game,
            script,
            *json,
            *progress,
            *no_store,
            *next_battle_of,
        ),
        Command::Replay { id, json } => replay(cli, *id, *json),
        Command::Log { action } => log(cli, action),
        Command::Deck { action } => decks::deck(cli, action),
        Command::Catalogue { action } => library::catalogue(cli, action),
        Command::Tags(args) => tags::tags(cli, args),
        Command::Track(args) => track::track(cli, args),
        Command::Config { action } => config(cli, action),
    }
}

/// The house rules of a JUNK-KEN draft's next battle, from stored match `previous`, put into
/// `script` (which names the same players, seat by seat, and deals no pool of its own).
fn next_battle_rules(store: &Store, previous: i64, script: &mut Script) -> Result<()> {
    use cards::games::junk_ken::{JunkKen, draft::next_battle_header};
    let m = crate::session::load_match(store, MatchId(previous))?;
    let next = m
        .as_any()
        .downcast_ref::<cards::matches::Match<JunkKen>>()
        .and_then(|jk| next_battle_header(jk.state(), jk.header()))
        .ok_or_else(|| anyhow!("match {previous} is not a JUNK-KEN draft whose battle is over"))?;
    let names: Vec<&str> = next.players.iter().map(|p| p.name.as_str()).collect();
    let ours: Vec<&str> = script.players.iter().map(|p| p.name.as_str()).collect();
    if names != ours {
        bail!(
            "the draft of match {previous} is played by {}, not {}",
            names.join(", "),
            ours.join(", ")
        );
    }
    if script.rules.contains_key("draft_pool") {
        bail!("the next battle of a draft deals no new pool: drop the draft_pool rule");
    }
    if let serde_json::Value::Object(rules) = next.rules {
        for (k, v) in rules {
            script.rules.entry(k).or_insert(v);
        }
    }
    Ok(())
}

fn play(
    cli: &Cli,
    game: &str,
    path: &Path,
    json: bool,
    progress: bool,
    no_store: bool,
    next_battle_of: Option<i64>,
) -> Result<()> {
    let game_id = GameId::parse(game).ok_or_else(|| {
        anyhow!(
            "unknown game `{game}` (expected one of: {})",
            GameId::ALL.map(GameId::as_str).join(", ")
        )
    })?;
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the script {}", path.display()))?;
    let mut script = Script::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    if script.game != game_id {
        bail!(
            "{}: the script is for {}, not {game_id}",
            path.display(),
            script.game
        );
    }
    let set = script
        .catalogue
        .clone()
        .unwrap_or_else(|| default_set(game_id));
    // The library's sets (the demo sets among them); without a store, the embedded demo sets.
    let store = if no_store {
        open_if_present(cli)?
    } else {
        Some(Store::open(&db_path(cli)?)?)
    };
    let catalogue = match &store {
        Some(store) => library_catalogue(store, game_id, &set)?.0,
        None => catalogue_for(game_id, &set)?,
    };
    if let Some(previous) = next_battle_of {
        let store = store.as_ref().ok_or_else(|| {
            anyhow!("--next-battle-of reads the stored match {previous}: no store")
        })?;
        next_battle_rules(store, previous, &mut script)
            .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    }
    let header = script
        .header(&catalogue)
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let mut stderr = std::io::stderr();
    let mut report = |line: usize, seq: u64| {
        if progress {
            // Written only after the input is durable: a reader can trust every line it sees.
            let _ = writeln!(stderr, "committed {seq} (line {line})");
        }
    };
    let fail = |e: ScriptError| -> anyhow::Error {
        let code = match e.kind {
            ScriptErrorKind::Rejected(_) | ScriptErrorKind::Check(_) => EXIT_REFUSED,
            _ => 1,
        };
        ExitError {
            code,
            message: format!("{}: {e}", path.display()),
        }
        .into()
    };
    if no_store {
        let mut m = cards::matches::new_match(header, &catalogue)?;
        for (line, step) in &script.steps {
            if let StepResult::Applied(p) =
                run_step(m.as_mut(), *line, step, &mut |_| Ok(())).map_err(fail)?
            {
                report(*line, p.seq);
            }
        }
        print_match(m.as_ref(), None, json)
    } else {
        let store = match store {
            Some(store) => store,
            None => Store::open(&db_path(cli)?)?,
        };
        let mut session = Session::start(store, header)?;
        for (line, step) in &script.steps {
            match step {
                Step::Input(v) => match session.submit(v) {
                    Ok(seq) => report(*line, seq),
                    Err(SubmitError::Rejected(r)) => {
                        return Err(fail(ScriptError {
                            line: *line,
                            kind: ScriptErrorKind::Rejected(r),
                        }));
                    }
                    Err(SubmitError::Store(e)) => return Err(e.into()),
                },
                other => {
                    check_step(session.game(), *line, other).map_err(fail)?;
                }
            }
        }
        print_match(
            session.game(),
            Some((session.id(), session.game().outcome().is_none())),
            json,
        )
    }
}

fn default_set(game: GameId) -> String {
    format!("{}-demo", game.as_str())
}

/// Prints a match's state; `id` is the stored match and whether its record is still open (a
/// match in progress: the state is that of the entries read).
fn print_match(m: &dyn AnyMatch, id: Option<(MatchId, bool)>, json: bool) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        let doc = serde_json::json!({
            "match_id": id.map(|(i, _)| i.0),
            "in_progress": id.is_some_and(|(_, open)| open),
            "game": m.game().as_str(),
            "entries": m.len(),
            "outcome": m.outcome(),
            "context": m.context(),
            "trackers": m.trackers(),
            "state": m.state_json(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(());
    }
    let ctx = m.context();
    if let Some((id, open)) = id {
        let progress = if open { " so far (in progress)" } else { "" };
        writeln!(
            out,
            "match {id} ({}), {} entries{progress}",
            m.game(),
            m.len()
        )?;
    }
    writeln!(out, "turn {} — {}", ctx.turn, ctx.phase.step)?;
    for (seat, name) in ctx.players.iter().enumerate() {
        let numbers: Vec<String> = m
            .trackers()
            .into_iter()
            .filter(|t| t.id.player == Some(seat))
            .map(|t| format!("{} {}", t.label, t.value))
            .collect();
        let lead = if ctx.leader == Some(seat) {
            " (parent)"
        } else {
            ""
        };
        writeln!(out, "  {name}{lead}: {}", numbers.join(", "))?;
    }
    match m.outcome() {
        Some(o) => writeln!(out, "result: {}", describe_outcome(&o, &ctx.players))?,
        None => writeln!(out, "next: {}", ctx.phase.next)?,
    }
    Ok(())
}

/// An outcome with the winner's name.
pub fn describe_outcome(outcome: &Outcome, players: &[String]) -> String {
    match outcome {
        Outcome::Win { winner, reason } => format!(
            "{} wins — {reason}",
            players.get(*winner).map_or("?", String::as_str)
        ),
        Outcome::Draw { .. } => outcome_sentence(outcome),
    }
}

fn newest(store: &Store) -> Result<MatchId> {
    store
        .matches()?
        .first()
        .map(|r| r.id)
        .ok_or_else(|| anyhow!("no match is stored in {}", store.path().display()))
}

fn open_existing(cli: &Cli) -> Result<Store> {
    let path = db_path(cli)?;
    if !path.exists() {
        bail!(
            "no match database at {} (play a match first, or pass --data-dir)",
            path.display()
        );
    }
    let store = match Store::open_read_only(&path) {
        // A log from an older Tableside: upgrading it is what opening it for writing does.
        Err(crate::store::StoreError::NeedsUpgrade { .. }) => Store::open(&path)?,
        other => other?,
    };
    if let Some(note) = store.read_only_media() {
        // On stderr, so the listing or export on stdout stays exactly what it always is.
        eprintln!("tableside: note: {note}");
    }
    Ok(store)
}

/// The store for reading, when a match database exists (upgraded first if it is older).
fn open_if_present(cli: &Cli) -> Result<Option<Store>> {
    if db_path(cli)?.exists() {
        open_existing(cli).map(Some)
    } else {
        Ok(None)
    }
}

fn replay(cli: &Cli, id: Option<i64>, json: bool) -> Result<()> {
    let store = open_existing(cli)?;
    let id = match id {
        Some(i) => MatchId(i),
        None => newest(&store)?,
    };
    let stored = replay_stored(&store, id)?;
    print_match(stored.game.as_ref(), Some((id, stored.in_progress())), json)
}

fn log(cli: &Cli, action: &LogAction) -> Result<()> {
    let store = open_existing(cli)?;
    let mut out = std::io::stdout().lock();
    match action {
        LogAction::List { json } => {
            let rows = store.list()?;
            for damaged in rows.iter().filter_map(|r| r.as_ref().err()) {
                eprintln!("tableside: warning: {damaged}; every other match is listed");
            }
            if *json {
                let docs: Vec<_> = rows
                    .iter()
                    .map(|row| match row {
                        Ok(r) => crate::export::record_json(r),
                        Err(d) => serde_json::json!({"id": d.id.0, "damaged": d.detail}),
                    })
                    .collect();
                writeln!(out, "{}", serde_json::to_string_pretty(&docs)?)?;
            } else if rows.is_empty() {
                writeln!(out, "no matches stored in {}", store.path().display())?;
            } else {
                for row in &rows {
                    let r = match row {
                        Ok(r) => r,
                        Err(d) => {
                            writeln!(out, "{:>5}  damaged: {}", d.id.0, d.detail)?;
                            continue;
                        }
                    };
                    let doc = crate::export::record_json(r);
                    let players = doc["players"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|p| p.as_str())
                                .collect::<Vec<_>>()
                                .join(" vs ")
                        })
                        .unwrap_or_default();
                    writeln!(
                        out,
                        "{:>5}  {:<11} {:<8} {:>5} entries  {players}",
                        r.id.0,
                        r.game,
                        r.status.as_str(),
                        r.entries
                    )?;
                }
            }
        }
        LogAction::Show { id, json } => {
            let id = MatchId(*id);
            if *json {
                let doc = crate::export::show_json(&store, id)?;
                writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
            } else {
                let stored = load_stored(&store, id)?;
                let m = stored.game.as_ref();
                let ctx = m.context();
                let progress = if stored.in_progress() {
                    format!(" (in progress: {} entries so far)", stored.record.entries)
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "match {id}: {} — {}{progress}",
                    m.game(),
                    ctx.players.join(" vs ")
                )?;
                for l in &m.log() {
                    let mark = if l.undone { " [undone]" } else { "" };
                    writeln!(out, "{:>5}  {}{mark}", l.seq, l.text)?;
                    for v in &l.overridden {
                        writeln!(out, "         overrode {v}")?;
                    }
                }
                if let Some(o) = m.outcome() {
                    writeln!(out, "result: {}", describe_outcome(&o, &ctx.players))?;
                }
            }
        }
        LogAction::Export {
            id,
            format,
            out: file,
        } => {
            let format = match format {
                ExportFormat::Json => crate::export::Format::Json,
                ExportFormat::Csv => crate::export::Format::Csv,
            };
            let text = crate::export::export_match(&store, MatchId(*id), format)?;
            match file {
                Some(p) => std::fs::write(p, text)
                    .with_context(|| format!("cannot write {}", p.display()))?,
                None => out.write_all(text.as_bytes())?,
            }
        }
    }
    Ok(())
}
