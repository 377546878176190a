//! The card library as a table uses it from the command line: its own cards of each game added
//! (TOML and CSV), a deck registered, tags printed, a whole match played, replayed and exported;
//! the set edited and added again with every stored match unchanged to the byte; removal
//! refused while the set is in use; and each bad file refused with its place named.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod own_sets;

use cards::catalogue::Catalogue;
use cards::decks::Deck;
use std::path::Path;

use own_sets::{cli as ok, run as tableside};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[track_caller]
fn refused(data: &Path, args: &[&str]) -> String {
    let out = tableside(data, args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "tableside {args:?} should be refused:\n{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stderr)
}

/// The win rates the history screen shows, from the store in `data`.
fn statistics(data: &Path) -> String {
    let store = tableside::store::Store::open_read_only(&data.join("tableside.sqlite3")).unwrap();
    let matches: Vec<_> = store
        .matches()
        .unwrap()
        .iter()
        .map(|r| {
            let header = tableside::session::header_of(&store, r.id).unwrap();
            let outcome = r
                .outcome_json
                .as_deref()
                .map(|j| serde_json::from_str(j).unwrap());
            (header, outcome)
        })
        .collect();
    format!("{:?}", tableside::ui::history::win_rates(&matches))
}

/// Everything a player can read back about the stored matches and the library.
fn history(data: &Path, ids: &[i64]) -> Vec<String> {
    let mut out = vec![ok(data, &["log", "list", "--json"]), statistics(data)];
    for id in ids {
        let id = id.to_string();
        out.push(ok(data, &["replay", &id, "--json"]));
        out.push(ok(data, &["log", "show", &id]));
        out.push(ok(data, &["log", "show", &id, "--json"]));
        out.push(ok(data, &["log", "export", &id, "--format", "json"]));
        out.push(ok(data, &["log", "export", &id, "--format", "csv"]));
    }
    out
}

fn match_id(stdout: &str) -> i64 {
    let doc: serde_json::Value = serde_json::from_str(stdout).unwrap();
    doc["match_id"].as_i64().unwrap()
}

#[test]
fn own_sets_of_every_game_go_from_add_to_a_replayed_exported_match_and_stay_so_when_edited() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let mut ids = Vec::new();
    let sets = own_sets::all();
    for own in &sets {
        let game = own.game.as_str();
        let file = data.join(format!("{}.toml", own.set_id));
        std::fs::write(&file, &own.toml).unwrap();
        let added = ok(data, &["catalogue", "add", file.to_str().unwrap()]);
        assert!(added.contains("version 1"), "{added}");

        // A deck of the set, registered from the library (no --catalogue).
        let cat = Catalogue::load("own.toml", &own.toml).unwrap();
        let list = &cat.decks[0];
        let deck = Deck::from_list(&cat, &list.id, "Aki").unwrap();
        let deck_file = data.join(format!("{}-deck.toml", own.set_id));
        std::fs::write(&deck_file, deck.to_toml()).unwrap();
        let checked = ok(data, &["deck", "check", deck_file.to_str().unwrap()]);
        assert!(checked.contains("is legal"), "{game}: {checked}");
        ok(data, &["deck", "register", deck_file.to_str().unwrap()]);

        // Tags for it: a sticker per copy.
        let svg = data.join(format!("{}-tags.svg", own.set_id));
        let printed = ok(
            data,
            &[
                "tags",
                "--deck",
                deck_file.to_str().unwrap(),
                "--out",
                svg.to_str().unwrap(),
                "--no-markers",
            ],
        );
        let copies = deck.copies().count();
        assert!(
            printed.starts_with(&format!("{copies} stickers")),
            "{game}: {printed}"
        );

        // A whole match by script, stored, then replayed.
        let script = data.join(format!("{}.script", own.set_id));
        std::fs::write(&script, &own.script).unwrap();
        let played = ok(
            data,
            &[
                "play",
                "--game",
                game,
                "--script",
                script.to_str().unwrap(),
                "--json",
            ],
        );
        let id = match_id(&played);
        let doc: serde_json::Value = serde_json::from_str(&played).unwrap();
        let replayed: serde_json::Value =
            serde_json::from_str(&ok(data, &["replay", &id.to_string(), "--json"])).unwrap();
        assert_eq!(replayed["state"], doc["state"], "{game}: replay = play");
        assert_eq!(replayed["outcome"], doc["outcome"], "{game}");
        let export: serde_json::Value =
            serde_json::from_str(&ok(data, &["log", "export", &id.to_string()])).unwrap();
        assert_eq!(export["header"]["catalogue"], own.set_id.as_str(), "{game}");
        let shown: serde_json::Value =
            serde_json::from_str(&ok(data, &["catalogue", "show", &own.set_id, "--json"])).unwrap();
        assert_eq!(
            export["header"]["catalogue_version"], shown["set"]["version"],
            "{game}: the header names the version it is played with"
        );
        ids.push(id);

        // The same set from a spreadsheet: exported as CSV, added under another id (the same
        // cards may be in two sets), and a match played with it.
        let csv = data.join(format!("{}.csv", own.set_id));
        ok(
            data,
            &[
                "catalogue",
                "export",
                &own.set_id,
                "--format",
                "csv",
                "--out",
                csv.to_str().unwrap(),
            ],
        );
        let csv_set = format!("{}-csv", own.set_id);
        ok(
            data,
            &[
                "catalogue",
                "add",
                csv.to_str().unwrap(),
                "--game",
                game,
                "--set",
                &csv_set,
                "--name",
                "From the spreadsheet",
                "--name-ja",
                "表計算から",
            ],
        );
        let csv_script = data.join(format!("{csv_set}.script"));
        std::fs::write(
            &csv_script,
            own.script.replacen(
                &format!("catalogue {}", own.set_id),
                &format!("catalogue {csv_set}"),
                1,
            ),
        )
        .unwrap();
        let from_csv = ok(
            data,
            &[
                "play",
                "--game",
                game,
                "--script",
                csv_script.to_str().unwrap(),
                "--json",
                "--no-store",
            ],
        );
        let from_csv: serde_json::Value = serde_json::from_str(&from_csv).unwrap();
        assert_eq!(
            from_csv["state"], doc["state"],
            "{game}: CSV set plays alike"
        );
    }

    let list = ok(data, &["catalogue", "list"]);
    for own in &sets {
        assert!(list.contains(&own.set_id), "{list}");
    }
    assert!(list.contains("demo (built in)"), "{list}");

    // The CSV copies hold the same card ids; an edited card would clash with them (a tag names
    // no set). They are unused, so they can go.
    for own in &sets {
        let copy = format!("{}-csv", own.set_id);
        let removed = ok(data, &["catalogue", "remove", &copy]);
        assert!(removed.contains("Removed"), "{removed}");
    }
    assert!(!ok(data, &["catalogue", "list"]).contains("-csv"));

    // Edit every own set (names and text) and add it again: a new version for new matches,
    // every stored match byte-for-byte as before.
    let before = history(data, &ids);
    for own in &sets {
        let edited = own
            .toml
            .replace("name_en = \"", "name_en = \"Reprint ")
            .replace("name_ja = \"", "name_ja = \"再版");
        let file = data.join(format!("{}.toml", own.set_id));
        std::fs::write(&file, &edited).unwrap();
        let added = ok(data, &["catalogue", "add", file.to_str().unwrap()]);
        assert!(added.contains("now version 2"), "{added}");
        let again = ok(data, &["catalogue", "add", file.to_str().unwrap()]);
        assert!(again.contains("nothing changed"), "{again}");
    }
    assert_eq!(history(data, &ids), before, "stored matches unchanged");
    // A new match uses the new version.
    let own = &sets[0];
    let script = data.join(format!("{}.script", own.set_id));
    let played = ok(
        data,
        &[
            "play",
            "--game",
            own.game.as_str(),
            "--script",
            script.to_str().unwrap(),
            "--json",
        ],
    );
    let shown = ok(data, &["log", "show", &match_id(&played).to_string()]);
    assert!(
        shown.contains("Reprint") || shown.contains("再版"),
        "{shown}"
    );

    // Removing a set in use is refused, naming who holds it, and changes nothing.
    let before = history(data, &ids);
    let library = ok(data, &["catalogue", "list", "--json"]);
    let why = refused(data, &["catalogue", "remove", &own.set_id]);
    assert!(why.contains("Aki's “"), "{why}");
    assert!(why.contains(&format!("#{}", ids[0])), "{why}");
    assert!(why.contains("使われている"), "in Japanese too: {why}");
    assert_eq!(ok(data, &["catalogue", "list", "--json"]), library);
    let why = refused(data, &["catalogue", "remove", "jaken-demo"]);
    assert!(why.contains("built into Tableside"), "{why}");
    assert_eq!(history(data, &ids), before, "stored matches unchanged");
}

/// The library's content as `catalogue list` and `export` show it.
fn library_state(data: &Path) -> Vec<String> {
    let mut out = vec![ok(data, &["catalogue", "list", "--json"])];
    let sets: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    for s in sets.as_array().unwrap() {
        let id = s["set_id"].as_str().unwrap();
        out.push(ok(data, &["catalogue", "export", id]));
    }
    out
}

#[test]
fn bad_catalogue_files_are_refused_with_their_place_and_nothing_stored_changes() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let own = own_sets::own(cards::core::GameId::Jaken);
    let file = data.join("own.toml");
    std::fs::write(&file, &own.toml).unwrap();
    ok(data, &["catalogue", "add", file.to_str().unwrap()]);
    let state = library_state(data);

    let csv_add = |name: &str, body: &[u8]| -> String {
        let path = data.join(name);
        std::fs::write(&path, body).unwrap();
        refused(
            data,
            &[
                "catalogue",
                "add",
                path.to_str().unwrap(),
                "--game",
                "jaken",
                "--set",
                "aki-csv",
            ],
        )
    };
    let head = "id,name_ja,name_en,kind,cost,atk,def,tribe\n";

    // Each bad CSV and what its refusal must say (the place, in English and Japanese).
    let cases: [(&str, String, &[&str]); 4] = [
        (
            "missing.csv",
            "id,name_ja,kind,cost,atk,def,tribe\nA1,a,nm,1,1,1,t\n".into(),
            &["missing.csv: row 1 (`name_en`)", "1行目"],
        ),
        (
            "unknown.csv",
            head.replace("atk", "attack"),
            &["row 1, column F (`attack`): unknown column", "不明な列"],
        ),
        (
            "number.csv",
            format!("{head}A1,a,a,nm,1,two,1,t\n"),
            &[
                "row 2, column F (`atk`): `two` is not a whole number",
                "2行目 F列",
            ],
        ),
        (
            "dup.csv",
            format!("{head}A1,a,a,nm,1,1,1,t\nA2,b,b,nm,1,1,1,t\nA1,c,c,nm,1,1,1,t\n"),
            &[
                "row 4, column A (`id`): card id `A1` appears twice (also in row 2)",
                "4行目",
            ],
        ),
    ];
    for (name, body, expected) in &cases {
        let why = csv_add(name, body.as_bytes());
        for part in *expected {
            assert!(why.contains(part), "{name}: `{part}` in {why}");
        }
    }
    // Not UTF-8 (a Shift_JIS export of 灯り).
    let mut sjis = format!("{head}A1,").into_bytes();
    sjis.extend_from_slice(&[0x93, 0x94, 0x82, 0xe8]);
    sjis.extend_from_slice(b",a,nm,1,1,1,t\n");
    let why = csv_add("sjis.csv", &sjis);
    assert!(why.contains("sjis.csv:2:4: the file is not UTF-8"), "{why}");
    assert!(why.contains("Shift_JIS"), "{why}");

    // An id clash with another set: both sets and both cards named.
    let clash = own
        .toml
        .replacen("id = \"own-jaken\"", "id = \"ben-jaken\"", 1)
        .replacen("name_en = \"Lantern Imp\"", "name_en = \"Not the Imp\"", 1);
    let path = data.join("clash.toml");
    std::fs::write(&path, clash).unwrap();
    let why = refused(data, &["catalogue", "add", path.to_str().unwrap()]);
    assert!(
        why.contains("of set `ben-jaken` (灯り小僧 / Not the Imp) is already card `QJ01` of set `own-jaken` (灯り小僧 / Lantern Imp)"),
        "{why}"
    );
    assert!(
        why.contains("セット `ben-jaken` のカード `QJ01`") && why.contains("セット `own-jaken`"),
        "both sets named in Japanese too: {why}"
    );

    // A TOML of a newer format.
    let path = data.join("newer.toml");
    std::fs::write(&path, own.toml.replacen("format = 1", "format = 2", 1)).unwrap();
    let why = refused(data, &["catalogue", "add", path.to_str().unwrap()]);
    assert!(
        why.contains("newer.toml:")
            && why.contains("field `format`: catalogue format 2 is not supported"),
        "{why}"
    );
    assert!(
        why.contains("欄 `format`: カタログ形式 2 には対応していません"),
        "in Japanese too: {why}"
    );

    // A TOML card the loader refuses: file, line and field, in both languages.
    let path = data.join("kind.toml");
    std::fs::write(
        &path,
        own.toml
            .replacen("id = \"own-jaken\"", "id = \"kind-jaken\"", 1)
            .replacen("kind = \"nm\"", "kind = \"xx\"", 1),
    )
    .unwrap();
    let why = refused(data, &["catalogue", "add", path.to_str().unwrap()]);
    assert!(
        why.contains("kind.toml:") && why.contains("unknown Jaken card kind `xx`"),
        "{why}"
    );
    assert!(
        why.contains("不明なジャケンのカードの種類 `xx`"),
        "in Japanese too: {why}"
    );

    // 50 MB: refused before it is read (a sparse file, so the test writes nothing).
    let path = data.join("huge.csv");
    std::fs::File::create(&path)
        .unwrap()
        .set_len(50_000_000)
        .unwrap();
    let why = refused(
        data,
        &[
            "catalogue",
            "add",
            path.to_str().unwrap(),
            "--game",
            "jaken",
            "--set",
            "big",
        ],
    );
    assert!(
        why.contains("is 50 MB, more than a catalogue may be (16 MB); it was not read"),
        "{why}"
    );
    assert!(
        why.contains("読み込みませんでした"),
        "in Japanese too: {why}"
    );

    assert_eq!(library_state(data), state, "nothing stored changed");
}

#[test]
fn a_demo_set_exports_to_start_from_before_anything_is_stored_and_its_decks_keep_their_names() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let csv = data.join("mine.csv");
    ok(
        data,
        &[
            "catalogue",
            "export",
            "jaken-demo",
            "--format",
            "csv",
            "--out",
            csv.to_str().unwrap(),
        ],
    );
    assert!(
        !data.join("tableside.sqlite3").exists(),
        "an export creates no database"
    );
    let demo = Catalogue::builtin(cards::core::GameId::Jaken).unwrap();
    // The spreadsheet goes back in as the table's own set; its ready-made decks keep their names.
    let add = format!(
        "catalogue add {} --game jaken --set mine --name Mine",
        csv.display()
    );
    ok(data, &add.split(' ').collect::<Vec<_>>());
    let shown: serde_json::Value =
        serde_json::from_str(&ok(data, &["catalogue", "show", "mine", "--json"])).unwrap();
    let names = |decks: &serde_json::Value| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = decks
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["id"].as_str().unwrap().to_owned(),
                    d["name"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let want = names(&serde_json::to_value(&demo.decks).unwrap());
    assert!(want.iter().any(|(id, name)| id != name), "{want:?}");
    assert_eq!(names(&shown["ready_made_decks"]), want);
    // A version the built-in set does not have is refused, naming it.
    let empty = tempfile::tempdir().unwrap();
    let why = refused(
        empty.path(),
        &["catalogue", "export", "jaken-demo", "--version", "7"],
    );
    assert!(why.contains("has no version `7`"), "{why}");
}

#[test]
fn catalogue_show_before_anything_is_stored_shows_a_demo_set_and_names_an_unknown_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let demo = Catalogue::builtin(cards::core::GameId::Jaken).unwrap();
    let shown = ok(data, &["catalogue", "show", "jaken-demo"]);
    assert!(shown.contains("demo (built in)"), "{shown}");
    assert!(shown.contains("from embedded"), "{shown}");
    for card in &demo.cards {
        assert!(shown.contains(&card.id), "{} missing:\n{shown}", card.id);
    }
    let json: serde_json::Value =
        serde_json::from_str(&ok(data, &["catalogue", "show", "jaken-demo", "--json"])).unwrap();
    assert_eq!(json["set"]["set_id"], "jaken-demo");
    assert_eq!(json["cards"].as_array().unwrap().len(), demo.cards.len());
    assert_eq!(json["versions"].as_array().unwrap().len(), 1);
    let why = refused(data, &["catalogue", "show", "no-such-set"]);
    assert!(
        why.contains("there is no set `no-such-set` in the card library"),
        "{why}"
    );
    assert!(
        why.contains("カードライブラリにセット `no-such-set` はありません"),
        "{why}"
    );
    assert!(!why.to_lowercase().contains("database"), "{why}");
    assert!(
        !data.join("tableside.sqlite3").exists(),
        "showing a set creates no database"
    );
}
