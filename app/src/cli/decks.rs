//! `tableside deck …` and `tableside catalogue …`: check card data and decks, register decks.

use super::{EXIT_REFUSED, ExitError, db_path, open_existing};
use crate::session::{catalogue_for, library_catalogue};
use crate::store::{RegisterError, Store};
use anyhow::{Context, Result, anyhow};
use cards::catalogue::Catalogue;
use cards::core::{GameId, Violation};
use cards::decks::Deck;
use clap::Subcommand;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `tableside deck …`
#[derive(Debug, Subcommand)]
pub enum DeckAction {
    /// Checks a deck file against its game's construction rules: one line per broken rule.
    Check {
        /// The deck file (docs/decks.md).
        file: PathBuf,
        /// The catalogue file its cards come from (default: the built-in set the deck names).
        #[arg(long, value_name = "FILE")]
        catalogue: Option<PathBuf>,
    },
    /// Checks a deck and registers it, binding each of its physical copies to its owner.
    Register {
        /// The deck file.
        file: PathBuf,
        /// The catalogue file its cards come from (default: the built-in set the deck names).
        #[arg(long, value_name = "FILE")]
        catalogue: Option<PathBuf>,
    },
    /// Lists the registered decks.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Removes a registered deck, freeing its copies.
    Unregister {
        /// The game.
        #[arg(long)]
        game: String,
        /// The owner.
        #[arg(long)]
        owner: String,
        /// The deck's name.
        name: String,
    },
}

fn read(path: &Path, what: &str) -> Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the {what} {}", path.display()))
}

/// Reads and parses a deck file.
pub fn load_deck(path: &Path) -> Result<Deck> {
    let text = read(path, "deck file")?;
    Deck::load(&path.display().to_string(), &text).map_err(|e| anyhow!("{e}\n  {}", e.ja()))
}

/// The catalogue a deck's cards come from: the given file, else the current version of the
/// library set it names (the demo sets among them), refused with the set's name when the library
/// has no such set.
pub fn catalogue_of(cli: &super::Cli, deck: &Deck, file: Option<&Path>) -> Result<Catalogue> {
    match file {
        Some(path) => {
            let text = crate::store::library::read_catalogue_file(path)?;
            Catalogue::load(&path.display().to_string(), &text)
                .map_err(|e| anyhow!("{e}\n  {}", e.ja()))
        }
        None => match super::open_if_present(cli)? {
            Some(store) => library_catalogue(&store, deck.game, &deck.set)
                .map(|(cat, _)| cat)
                .map_err(|e| {
                    anyhow!(
                        "deck “{}” is of set `{}`: {e} (add the set with `tableside catalogue add FILE`, or pass --catalogue FILE)",
                        deck.name,
                        deck.set
                    )
                }),
            None => catalogue_for(deck.game, &deck.set).map_err(|e| {
                anyhow!(
                    "deck “{}” is of set `{}`: {e} (add the set with `tableside catalogue add FILE`, or pass --catalogue FILE)",
                    deck.name,
                    deck.set
                )
            }),
        },
    }
}

/// Prints a deck's check in the user's language (`TABLESIDE_LANG`, as the window: English
/// unless it says `ja`).
fn print_problems(out: &mut impl Write, deck: &Deck, problems: &[Violation]) -> Result<()> {
    let ja = crate::ui::i18n::Lang::from_env() == crate::ui::i18n::Lang::Ja;
    let copies = deck.main.len() + deck.extra.len();
    if problems.is_empty() {
        if ja {
            writeln!(
                out,
                "{} の {} デッキ「{}」({copies}枚)は構築ルールをすべて満たしています。",
                deck.owner, deck.game, deck.name
            )?;
        } else {
            writeln!(
                out,
                "{}'s {} deck “{}” ({copies} copies) is legal.",
                deck.owner, deck.game, deck.name
            )?;
        }
    } else {
        if ja {
            writeln!(
                out,
                "{} の {} デッキ「{}」は構築ルールを{}個満たしていません:",
                deck.owner,
                deck.game,
                deck.name,
                problems.len()
            )?;
        } else {
            writeln!(
                out,
                "{}'s {} deck “{}” breaks {} rule(s):",
                deck.owner,
                deck.game,
                deck.name,
                problems.len()
            )?;
        }
        for p in problems {
            writeln!(
                out,
                "  ✗ {} [{}; {}]",
                p.sentence_in(ja),
                p.rule,
                p.reference
            )?;
        }
    }
    Ok(())
}

fn refused(message: String) -> anyhow::Error {
    ExitError {
        code: EXIT_REFUSED,
        message,
    }
    .into()
}

fn check(cli: &super::Cli, path: &Path, catalogue: Option<&Path>) -> Result<Deck> {
    let deck = load_deck(path)?;
    let cat = catalogue_of(cli, &deck, catalogue)?;
    let problems = deck
        .check(&cat)
        .map_err(|e| refused(format!("{}: {e}\n  {}", path.display(), e.ja())))?;
    print_problems(&mut std::io::stdout().lock(), &deck, &problems)?;
    if problems.is_empty() {
        Ok(deck)
    } else {
        Err(refused(format!(
            "{}: the deck breaks {} construction rule(s)",
            path.display(),
            problems.len()
        )))
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Runs `tableside deck …`.
pub fn deck(cli: &super::Cli, action: &DeckAction) -> Result<()> {
    match action {
        DeckAction::Check { file, catalogue } => check(cli, file, catalogue.as_deref()).map(|_| ()),
        DeckAction::Register { file, catalogue } => {
            let deck = check(cli, file, catalogue.as_deref())?;
            let mut store = Store::open(&db_path(cli)?)?;
            // A registered deck names a set of the library, so that its matches can be played.
            if let Err(e) = library_catalogue(&store, deck.game, &deck.set) {
                return Err(refused(format!(
                    "{}: not registered: deck “{}” is of set `{}`: {e} (add the set first: `tableside catalogue add FILE`)",
                    file.display(),
                    deck.name,
                    deck.set
                )));
            }
            match store.register_deck(&deck, now_ms()) {
                Ok(()) => {
                    println!(
                        "Registered: {} copies now tell that they are {}'s.",
                        deck.main.len() + deck.extra.len(),
                        deck.owner
                    );
                    Ok(())
                }
                Err(RegisterError::Refused(e)) => Err(refused(format!(
                    "{}: not registered: {e}\n  {}: 登録しませんでした: {}",
                    file.display(),
                    file.display(),
                    e.ja()
                ))),
                Err(RegisterError::Store(e)) => Err(e.into()),
            }
        }
        DeckAction::List { json } => {
            let path = db_path(cli)?;
            let decks: Vec<Deck> = if path.exists() {
                open_existing(cli)?.registry()?.decks().cloned().collect()
            } else {
                Vec::new()
            };
            let mut out = std::io::stdout().lock();
            if *json {
                serde_json::to_writer_pretty(&mut out, &decks)?;
                writeln!(out)?;
            } else if decks.is_empty() {
                writeln!(out, "No registered decks.")?;
            } else {
                for d in &decks {
                    writeln!(
                        out,
                        "{:<12} {:<16} {:<24} {:>3} copies  (set {})",
                        d.game.as_str(),
                        d.owner,
                        d.name,
                        d.main.len() + d.extra.len(),
                        d.set
                    )?;
                }
            }
            Ok(())
        }
        DeckAction::Unregister { game, owner, name } => {
            let game = GameId::parse(game).ok_or_else(|| {
                anyhow!(
                    "unknown game `{game}` (expected one of: {})",
                    GameId::ALL.map(GameId::as_str).join(", ")
                )
            })?;
            let mut store = Store::open(&db_path(cli)?)?;
            if store.unregister_deck(game, owner, name)? {
                println!("Unregistered {owner}'s {game} deck “{name}”; its copies are free.");
                Ok(())
            } else {
                Err(refused(format!(
                    "{owner} has no registered {game} deck named “{name}”"
                )))
            }
        }
    }
}
