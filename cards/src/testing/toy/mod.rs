//! A sixth, toy game that exists only in this crate's own tests: it shows that a game is one
//! folder and one row of the table (`cards/src/games/mod.rs`, behind `cfg(test)`), and a test
//! plays it through the match-script runner like the five real games.
//!
//! The game is Pig (ブタ), a dice race: on your turn roll 1d6 as often as you like, adding each
//! face to the pot; a 1 loses the pot and ends your turn; holding banks the pot. The first to
//! reach the target (house rule `target`, 20 by default) wins. It has no cards, so its
//! catalogue has none and its one ready-made deck is empty.

mod rules;

pub use rules::{Event, Move, Pig, Rules, State};

use crate::catalogue::{
    CardData, Catalogue, CatalogueError, Common, Ctx, RawCard, Span, load_cards,
};
use crate::core::GameId;
use crate::games::descriptor::{DemoSet, GameDescriptor, ListDeck, no_zone_moves};
use serde::Deserialize;

/// Pig, as the table of games lists it (in this crate's tests only).
pub static GAME: GameDescriptor = GameDescriptor {
    id: GameId::Toy,
    key: "toy",
    tag_letter: 'T',
    name_en: "Pig",
    name_ja: "ブタ",
    players: 2..=4,
    demo: DemoSet {
        file: "toy-demo.toml (embedded)",
        text: "format = 1\ngame = \"toy\"\n\n[set]\nid = \"toy-demo\"\nname_en = \"Pig\"\nname_ja = \"ブタ\"\ndemo = true\n\n[[decks]]\nid = \"dice\"\nname = \"Dice only\"\ncards = []\n",
    },
    load,
    card_shape: crate::catalogue::csv::shape_of::<NoCard>,
    check_deck: |_, _| Vec::new(),
    list_deck: ListDeck::PLAIN,
    new_match: crate::matches::new_boxed::<Pig>,
    zone_moves: no_zone_moves,
};

/// A card of the toy game: there are none, so a catalogue listing one is refused.
#[derive(Deserialize)]
enum NoCard {}

impl RawCard for NoCard {
    fn common(&self) -> Common<'_> {
        match *self {}
    }
    fn build(&self, _: &Ctx<'_>, _: &Span) -> Result<CardData, CatalogueError> {
        match *self {}
    }
}

/// Reads the toy game's catalogue: a set and decks, no cards.
fn load(ctx: &Ctx<'_>) -> Result<Catalogue, CatalogueError> {
    load_cards::<NoCard>(ctx, GameId::Toy)
}

#[cfg(test)]
mod tests {
    use crate::catalogue::Catalogue;
    use crate::core::GameId;
    use crate::matches::new_match;
    use crate::script::{Script, ScriptErrorKind, run_step};

    /// Runs a script of the toy game to its end, as `tableside play` does.
    fn play(text: &str) -> Result<Box<dyn crate::matches::AnyMatch>, crate::script::ScriptError> {
        let script = Script::parse(text)?;
        let catalogue = Catalogue::builtin(script.game).expect("the toy demo set loads");
        let mut m = new_match(script.header(&catalogue)?, &catalogue).expect("a toy match");
        for (line, step) in &script.steps {
            run_step(m.as_mut(), *line, step, &mut |_| Ok(()))?;
        }
        Ok(m)
    }

    const GAME: &str = "game toy\nrule target=10\nplayer Aki deck=dice\nplayer Ben deck=dice\n";

    #[test]
    fn the_toy_game_plays_through_the_script_runner() {
        // Given the toy game, registered by one row of the table and one folder,
        let script = format!(
            "{GAME}\
             move roll player=Aki\n\
             roll d6 4 player=Aki\n\
             refused toy.turn move roll player=Ben\n\
             move roll player=Aki\n\
             roll d6 5 player=Aki\n\
             expect pot 9\n\
             move hold player=Aki\n\
             expect score player=Aki 9\n\
             move roll player=Ben\n\
             roll d6 1 player=Ben\n\
             expect pot 0\n\
             expect score player=Ben 0\n\
             move roll player=Aki\n\
             roll d6 2 player=Aki\n\
             move hold player=Aki\n\
             expect score player=Aki 11\n\
             expect outcome winner=Aki\n"
        );
        // when a script of it is run, then every check holds.
        let m = play(&script).unwrap();
        assert_eq!(m.game(), GameId::Toy);
        assert_eq!(m.log().len(), 10);
    }

    #[test]
    fn the_toy_game_refuses_what_its_rules_forbid_and_its_house_rules_are_strict() {
        // A move out of turn stops the run at its line, naming the rule.
        let err = play(&format!("{GAME}move hold player=Ben\n"))
            .err()
            .unwrap();
        assert_eq!(err.line, 5);
        assert!(
            matches!(&err.kind, ScriptErrorKind::Rejected(crate::matches::Rejection::Refused { violations }) if violations[0].rule == "toy.turn"),
            "{err}"
        );
        // An unknown house rule is refused with its name.
        let catalogue = Catalogue::builtin(GameId::Toy).unwrap();
        let script =
            Script::parse("game toy\nrule bust=2\nplayer Aki deck=dice\nplayer Ben deck=dice\n")
                .unwrap();
        let refused = new_match(script.header(&catalogue).unwrap(), &catalogue)
            .err()
            .unwrap();
        assert!(refused.to_string().contains("bust"), "{refused}");
        // A catalogue of the toy game with a card is refused: the game has none.
        let text = format!(
            "{}\n[[cards]]\nid = \"X\"\nname_ja = \"x\"\nname_en = \"x\"\n",
            GameId::Toy.descriptor().demo.text
        );
        assert!(Catalogue::load("toy.toml", &text).is_err());
    }

    #[test]
    fn the_toy_game_is_nowhere_in_the_five_games_of_a_build() {
        assert!(!GameId::ALL.contains(&GameId::Toy));
        assert_eq!(GameId::parse("toy"), Some(GameId::Toy));
    }
}
