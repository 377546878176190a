//! `tableside deck …` and `tableside catalogue check` as a player runs them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tableside(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("TABLESIDE_DATA_DIR")
        .env_remove("TABLESIDE_LANG")
        .output()
        .expect("run tableside")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples/decks")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_legal_deck_checks_and_registers_and_a_second_claim_on_a_copy_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let aki = example("jaken-aki-lanterns.toml");
    let out = tableside(dir.path(), &["deck", "check", &aki]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("is legal"),
        "{}",
        text(&out.stdout)
    );

    let out = tableside(dir.path(), &["deck", "register", &aki]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = tableside(
        dir.path(),
        &["deck", "register", &example("jaken-ben-gale.toml")],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));

    // Carla borrows Aki's second 灯り小僧 for her deck: refused, naming whose it is.
    let carla = dir.path().join("carla.toml");
    let body = std::fs::read_to_string(&aki)
        .unwrap()
        .replace("owner = \"Aki\"", "owner = \"Carla\"")
        .replace("name = \"Lanterns of the Night\"", "name = \"Borrowed\"");
    std::fs::write(&carla, body).unwrap();
    let out = tableside(dir.path(), &["deck", "register", carla.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("JD01 #1 is already registered to Aki's deck"),
        "{}",
        text(&out.stderr)
    );

    let out = tableside(dir.path(), &["deck", "list", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let decks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let owners: Vec<&str> = decks
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["owner"].as_str().unwrap())
        .collect();
    assert_eq!(owners, ["Aki", "Ben"]);

    // Once Aki's deck is unregistered, Carla can register hers.
    let out = tableside(
        dir.path(),
        &[
            "deck",
            "unregister",
            "--game",
            "jaken",
            "--owner",
            "Aki",
            "Lanterns of the Night",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = tableside(dir.path(), &["deck", "register", carla.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn an_illegal_deck_gets_one_line_per_broken_rule_and_is_not_registered() {
    let dir = tempfile::tempdir().unwrap();
    let deck = dir.path().join("bad.toml");
    // 16 cards, three 灯り小僧, and BG cards of two names.
    std::fs::write(
        &deck,
        "format = 1\ngame = \"jaken\"\nset = \"jaken-demo\"\nname = \"Bad\"\nowner = \"Aki\"\n\
         [main]\nJD01 = 3\nJD02 = 2\nJD03 = 2\nJD04 = 2\nJD05 = 2\nJD06 = 2\nJD25 = 1\nJD26 = 2\n",
    )
    .unwrap();
    let out = tableside(dir.path(), &["deck", "register", deck.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    for rule in ["jaken.deck-size", "jaken.deck-copies", "jaken.deck-bg"] {
        assert!(stdout.contains(rule), "{rule} missing in:\n{stdout}");
    }
    assert!(
        stdout.contains("A deck has exactly 15 cards; this one has 16."),
        "{stdout}"
    );
    // In Japanese, the same rules with the rulebook's words.
    let out = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(dir.path())
        .args(["deck", "register", deck.to_str().unwrap()])
        .env_remove("TABLESIDE_DATA_DIR")
        .env("TABLESIDE_LANG", "ja")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let ja = text(&out.stdout);
    for sentence in [
        "1デッキ15枚編成です。このデッキは16枚です。",
        "同じ名前のカードは2枚までデッキに入れられます。",
        "フィールドカードは1つのデッキに1種類しか入れられません。",
        "構築ルールを3個満たしていません",
    ] {
        assert!(ja.contains(sentence), "{sentence} missing in:\n{ja}");
    }
    assert!(!ja.contains("A deck has exactly"), "{ja}");
    let out = tableside(dir.path(), &["deck", "list"]);
    assert!(
        text(&out.stdout).contains("No registered decks"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn broken_files_are_named_with_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let deck = dir.path().join("typo.toml");
    std::fs::write(
        &deck,
        "format = 1\ngame = \"jaken\"\nset = \"jaken-demo\"\nname = \"T\"\nowner = \"Aki\"\n[main]\nJD01 = [1, -2]\n",
    )
    .unwrap();
    let out = tableside(dir.path(), &["deck", "check", deck.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("typo.toml:7"),
        "{}",
        text(&out.stderr)
    );

    let cat = dir.path().join("cat.toml");
    std::fs::write(
        &cat,
        "format = 1\ngame = \"jaken\"\n[set]\nid = \"x\"\nname_en = \"X\"\nname_ja = \"X\"\n[[cards]]\nid = \"A\"\nname_ja = \"a\"\nname_en = \"a\"\nkind = \"nm\"\ncost = 1\natk = 500\ndef = 1\ntribe = \"t\"\n",
    )
    .unwrap();
    let out = tableside(dir.path(), &["catalogue", "check", cat.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("cat.toml:13") && err.contains("atk"), "{err}");
}
