//! The games in the window, one file each, and the one table that lists them.
//!
//! [`of`] is the one `match` on [`GameId`] in the app: every screen that must tell the games
//! apart (the table screen's panel, the top bar's turn and steps, the start form, the generic
//! panel's pickers and effect form) reads the game's [`GameUi`]. Jaken has a panel of its own
//! ([`jaken`]); the other games use the generic panel ([`generic`]) with what their file says.
//! What the rules core knows of a game (its names, player counts, catalogue) comes from the
//! game's descriptor in `cards` ([`GameId::descriptor`]).
//!
//! To add a game to the window: its file here, with its `UI` entry, and its row in [`of`].

pub(crate) mod generic;
pub(crate) mod jaken;
pub(crate) mod junk_ken;
pub(crate) mod rockman;
pub(crate) mod space_junk;
pub(crate) mod spec;
pub(crate) mod yomi;

pub(crate) use spec::{GameUi, Start};

use cards::core::GameId;

/// What the window shows of a game.
pub(crate) fn of(game: GameId) -> &'static GameUi {
    match game {
        GameId::Jaken => &jaken::UI,
        GameId::JunkKen => &junk_ken::UI,
        GameId::RockmanExe => &rockman::UI,
        GameId::SpaceJunk => &space_junk::UI,
        GameId::Yomi => &yomi::UI,
    }
}

/// The game's name for the players, from its short id (`jaken` → "Jaken ジャケン"): its English
/// and its Japanese name, once when they are the same; an unknown id as it is.
pub(crate) fn title(game: &str) -> String {
    match GameId::parse(game).map(GameId::descriptor) {
        Some(d) if d.name_en == d.name_ja => d.name_en.to_owned(),
        Some(d) => format!("{} {}", d.name_en, d.name_ja),
        None => game.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_title_in_both_languages() {
        let titles: Vec<String> = GameId::ALL.map(|g| title(g.as_str())).to_vec();
        assert_eq!(
            titles,
            [
                "Jaken ジャケン",
                "JUNK-KEN JUNK-拳",
                "Rockman EXE ロックマンエグゼ",
                "Space Junk スペースジャンク",
                "Yomi ヨミ"
            ]
        );
        assert_eq!(title("chess"), "chess");
    }
}
