//! The workspace's layout holds (issue 19): each crate tells the games apart in one file, its
//! table of games, and the files of `cards/src` and of `app/src/ui` import each other in no
//! circle. `.ci/run` runs this test on its own before the suite. The checks themselves, with
//! the cases they must catch, are in `tests/src/layout.rs`.

#![allow(clippy::panic)]

use tests::layout::{CrateSources, game_dispatch, import_cycles, member_src};

fn sources(member: &str) -> CrateSources {
    let src = member_src(member);
    match CrateSources::read(&src) {
        Ok(s) if !s.files.is_empty() => s,
        Ok(_) => panic!("no sources under {}", src.display()),
        Err(e) => panic!("cannot read {}: {e}", src.display()),
    }
}

#[test]
fn each_crate_matches_on_the_game_id_in_its_table_of_games_only() {
    let tables = [
        ("cards", "games/mod.rs"),
        ("app", "ui/games/mod.rs"),
        ("hardware", "vision/mat.rs"),
    ];
    let mut found = Vec::new();
    for (member, table) in tables {
        let s = sources(member);
        assert!(
            s.files.contains_key(table),
            "{member}'s table of games {table} is missing"
        );
        found.extend(
            game_dispatch(&s, table)
                .into_iter()
                .map(|d| format!("{member}/src/{d}")),
        );
    }
    assert!(
        found.is_empty(),
        "the games are told apart outside the tables of games (route these through the game's \
         descriptor, `GameId::descriptor()`, or the crate's table):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_file_of_cards_or_of_the_app_window_imports_itself_in_a_circle() {
    let mut circles = Vec::new();
    for (member, part) in [("cards", ""), ("app", "ui/")] {
        for c in import_cycles(&sources(member), |f| f.starts_with(part)) {
            circles.push(format!(
                "{member}/src: {}",
                c.iter()
                    .map(|f| format!("{member}/src/{f}"))
                    .collect::<Vec<_>>()
                    .join(" ⇄ ")
            ));
        }
    }
    assert!(
        circles.is_empty(),
        "files that import each other in a circle:\n{}",
        circles.join("\n")
    );
}
