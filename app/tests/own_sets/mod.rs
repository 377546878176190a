//! A table's own card sets for the tests: each game's demo set with its card ids, set id, names
//! and demo mark changed, as a group that owns other cards would write it, and the example match
//! script of each game rewritten for it.

// Each test binary uses some of these.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::{BUILTIN, Catalogue};
use cards::core::GameId;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// (game, the demo set's card id prefix, the own set's prefix, the example script).
const TABLE: [(&str, &str, &str, &str); 5] = [
    ("jaken", "JD", "QJ", "jaken-demo.script"),
    ("junk-ken", "JK", "QK", "junk_ken-demo.script"),
    ("rockman-exe", "RX", "QR", "rockman-demo.script"),
    ("space-junk", "SJ", "QS", "space_junk-demo.script"),
    ("yomi", "YO-", "QY-", "yomi-demo.script"),
];

/// One game's own set.
pub struct Own {
    /// The game.
    pub game: GameId,
    /// The own set's id, `own-<game>`.
    pub set_id: String,
    /// Its catalogue file.
    pub toml: String,
    /// The game's example match script, played with the own set.
    pub script: String,
    /// The prefix of its card ids.
    pub prefix: &'static str,
}

/// Replaces each card id prefix `from` (followed by a digit, or for `YO-` by A or B, and not
/// preceded by a letter or digit) with `to`.
fn rename_ids(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut prev: Option<char> = None;
    while !rest.is_empty() {
        if rest.starts_with(from)
            && !prev.is_some_and(|c| c.is_ascii_alphanumeric())
            && rest[from.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit() || c == 'A' || c == 'B')
        {
            out.push_str(to);
            rest = &rest[from.len()..];
            prev = to.chars().last();
            continue;
        }
        let c = rest.chars().next().unwrap();
        out.push(c);
        prev = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The own set of `game`.
pub fn own(game: GameId) -> Own {
    let (_, from, to, script) = TABLE.iter().find(|(g, ..)| *g == game.as_str()).unwrap();
    let demo = Catalogue::builtin(game).unwrap();
    let demo_text = BUILTIN
        .iter()
        .map(|(_, t)| *t)
        .find(|t| Catalogue::load("x", t).is_ok_and(|c| c.game == game))
        .unwrap();
    let set_id = format!("own-{}", game.as_str());
    let toml = rename_ids(demo_text, from, to)
        .replacen(
            &format!("id = \"{}\"", demo.set.id),
            &format!("id = \"{set_id}\""),
            1,
        )
        .replacen(
            &format!("name_en = {}", toml_string(&demo.set.name_en)),
            &format!("name_en = \"Aki's own {game} cards\""),
            1,
        )
        .replacen(
            &format!("name_ja = {}", toml_string(&demo.set.name_ja)),
            &format!("name_ja = \"アキの{game}カード\""),
            1,
        )
        .replacen("demo = true", "demo = false", 1);
    let script = script_for(game, script);
    let own = Own {
        game,
        set_id,
        toml,
        script,
        prefix: to,
    };
    let cat = Catalogue::load("own.toml", &own.toml).unwrap();
    assert_eq!(cat.set.id, own.set_id);
    assert!(!cat.set.demo, "the own set is not a demo set");
    assert!(
        cat.card(&demo.cards[0].id).is_none(),
        "its card ids are its own"
    );
    own
}

/// The example match script `docs/examples/<file>` of `game`, played with the game's own set:
/// its card ids and its `catalogue` line renamed.
pub fn script_for(game: GameId, file: &str) -> String {
    let (_, from, to, _) = TABLE.iter().find(|(g, ..)| *g == game.as_str()).unwrap();
    let demo = Catalogue::builtin(game).unwrap();
    rename_ids(&example(file), from, to).replacen(
        &format!("catalogue {}", demo.set.id),
        &format!("catalogue own-{}", game.as_str()),
        1,
    )
}

/// Adds `own` to the card library of the store at `db`, as `tableside catalogue add` does.
/// Returns the catalogue and the version added.
pub fn add_to(db: &Path, own: &Own) -> (Catalogue, String) {
    let mut store = tableside::store::Store::open(db).unwrap();
    let (cat, toml) =
        tableside::store::library::parse_catalogue("own.toml", &own.toml, None).unwrap();
    let added = store.add_catalogue(&cat, &toml, "own.toml", 1).unwrap();
    (cat, added.version)
}

/// Runs `tableside --data-dir data ARGS` (no config file, no data folder from the environment).
pub fn run(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("TABLESIDE_DATA_DIR")
        .env("TABLESIDE_CONFIG", data.join("no-config.toml"))
        .output()
        .expect("run tableside")
}

/// Runs `tableside --data-dir data ARGS` and returns what it prints; a failure fails the test.
#[track_caller]
pub fn cli(data: &Path, args: &[&str]) -> String {
    let out = run(data, args);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(
        out.status.success(),
        "tableside {args:?} failed:\n{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// The one match stored in `data`, played with `own`'s set at `version` (its header names the
/// set, its decks hold the set's own card ids, its record the version), replayed and exported
/// from the command line: the replay ends where `played` ended, and the export's header names
/// the set and its version.
pub fn replay_and_export(
    data: &Path,
    own: &Own,
    version: &str,
    played: &dyn cards::matches::AnyMatch,
) {
    let game = own.game;
    let store = tableside::store::Store::open_read_only(&data.join("tableside.sqlite3")).unwrap();
    let id = store.matches().unwrap()[0].id;
    assert_eq!(
        store.match_catalogue_version(id).unwrap().as_deref(),
        Some(version),
        "{game}: the match is stored with the version it is played with"
    );
    let header = tableside::session::header_of(&store, id).unwrap();
    assert_eq!(header.catalogue, own.set_id, "{game}");
    for p in &header.players {
        assert!(
            p.deck.iter().all(|c| c.starts_with(own.prefix)),
            "{game}: the set's own card ids: {:?}",
            p.deck
        );
    }
    drop(store);
    let id = id.0.to_string();
    let replayed: serde_json::Value =
        serde_json::from_str(&cli(data, &["replay", &id, "--json"])).unwrap();
    assert_eq!(
        replayed["state"],
        played.state_json(),
        "{game}: replay = play"
    );
    assert_eq!(
        replayed["outcome"],
        serde_json::to_value(played.outcome()).unwrap(),
        "{game}: the replay ends as the match did"
    );
    let export: serde_json::Value =
        serde_json::from_str(&cli(data, &["log", "export", &id])).unwrap();
    assert_eq!(export["header"]["catalogue"], own.set_id.as_str(), "{game}");
    assert_eq!(
        export["header"]["catalogue_version"], version,
        "{game}: the export names the version played"
    );
    assert_eq!(
        export["entries"].as_array().map(Vec::len),
        Some(played.len()),
        "{game}: every stored entry is exported"
    );
    let csv = cli(data, &["log", "export", &id, "--format", "csv"]);
    assert!(
        csv.starts_with("seq,at_ms,kind,text,undone,input_json\n")
            && csv.lines().count() > played.len(),
        "{game}: a CSV row per stored entry:\n{csv}"
    );
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

/// Every game's own set.
pub fn all() -> Vec<Own> {
    GameId::ALL.into_iter().map(own).collect()
}
