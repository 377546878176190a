//! A table's own card sets for the tests: each game's demo set with its card ids, set id, names
//! and demo mark changed, as a group that owns other cards would write it, and the example match
//! script of each game rewritten for it.

// Each test binary uses some of these.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::{BUILTIN, Catalogue};
use cards::core::GameId;
use std::path::PathBuf;

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
    let script = rename_ids(&example(script), from, to).replacen(
        &format!("catalogue {}", demo.set.id),
        &format!("catalogue {set_id}"),
        1,
    );
    let own = Own {
        game,
        set_id,
        toml,
        script,
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

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

/// Every game's own set.
pub fn all() -> Vec<Own> {
    GameId::ALL.into_iter().map(own).collect()
}
