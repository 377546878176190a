//! What a game's entry in the window's table of games says ([`GameUi`]): which panel draws its
//! match, how its moves, turns and steps read, what the generic panel's pickers and effect
//! form offer, and how its start form is filled in.

use crate::ui::i18n::Lang;
use crate::ui::view::{PanelMemory, Taps, View};
use cards::core::{Prompt, Seat};
use cards::game::Game;
use cards::matches::{Action, AnyMatch, Match};
use egui::Ui;

/// What the window shows of one game.
pub(crate) struct GameUi {
    /// Draws the game's part of the table screen: the moves, a column per player.
    pub panel: fn(&mut Ui, &View<'_>, &GameUi, &mut Taps, &mut PanelMemory),
    /// A move's button text in the window's language.
    pub label: fn(&View<'_>, &Action) -> String,
    /// The turn caption of the top bar, given " / 10" where the game has a set number of turns.
    pub turn: fn(&View<'_>, &str) -> String,
    /// Whether the turn counter is on, with its "± edit" (JUNK-KEN's draft: not before the
    /// battle, whose turns it counts).
    pub turn_counted: fn(&View<'_>) -> bool,
    /// The current step and the next one, in the window's language.
    pub steps: fn(&View<'_>) -> (String, String),
    /// Numbers a move carries, chosen with a stepper (generic panel).
    pub params: &'static [Param],
    /// The numbers of the game's hand-entered `effect` move (generic panel; none: no form).
    pub effect_fields: &'static [Field],
    /// The yes/no parts of the effect (generic panel).
    pub effect_flags: &'static [Field],
    /// Moves that name cards, tapped in order (generic panel).
    pub picks: &'static [CardPick],
    /// A card's (English, Japanese) name from the match's own card list.
    pub card_name: CardName,
    /// The (English, Japanese) name a card's moves are offered under on the 800×480 screen
    /// when they do not fit one button each: the card's family where copies differ only by a
    /// printed rank (Yomi's "Stone Jab"); `None`: the card's own name.
    pub family: CardName,
    /// The cards a picked move of a seat can name, with their labels.
    pub pickable: Pickable,
    /// How the start screen sets a match of the game up.
    pub start: Start,
    /// The tracked number that decides the game (HP, fame…): the biggest number of each
    /// player's area, and the first (generic panel).
    pub headline: &'static str,
    /// Move types that end a player's options or drop an effect ("plays nothing", "no
    /// effect"): a tap asks again, and they are never the primary move.
    pub confirm: &'static [&'static str],
    /// The likely next move where the game's entry knows better than the rules' first move
    /// (an effect whose condition holds, filled in with the card's printed numbers): the
    /// primary move (Space, GPIO "next").
    pub suggest: fn(&dyn AnyMatch, &mut PanelMemory) -> Option<Action>,
    /// A prompt's text in the window's language.
    pub prompt: fn(&View<'_>, &Prompt) -> String,
    /// The Japanese caption of a tracked number, by its name (`None`: the label's own).
    pub tracker_ja: fn(&str) -> Option<&'static str>,
    /// The Japanese of a phase of the phase bar, by the rules core's name (`None`: the
    /// name's own Japanese part, "Set セット" → "セット").
    pub phase_ja: fn(&str) -> Option<&'static str>,
    /// The reason an outcome gives ("more SB after battle 10 (12 to 8)"), in the window's
    /// language.
    pub outcome: fn(&View<'_>, &str) -> String,
    /// The game's house rules: their keys (sorted), and whether a set of them (JSON) is one
    /// the game reads, with the game's reason when not.
    pub rules: RulesCheck,
}

/// The house rules a game reads (see [`rules_check`]).
#[derive(Clone, Copy)]
pub(crate) struct RulesCheck {
    /// Every key of the game's house rules, sorted.
    pub keys: fn() -> Vec<String>,
    /// `Err` with the game's reason when the rules (a JSON object) are not the game's.
    pub check: fn(&serde_json::Value) -> Result<(), String>,
}

/// The house rules of game `G`.
pub(crate) const fn rules_check<G: Game>() -> RulesCheck {
    RulesCheck {
        keys: rules_keys::<G>,
        check: check_rules::<G>,
    }
}

fn rules_keys<G: Game>() -> Vec<String> {
    let mut keys: Vec<String> = match serde_json::to_value(G::Rules::default()) {
        Ok(serde_json::Value::Object(map)) => map.keys().cloned().collect(),
        _ => Vec::new(),
    };
    keys.sort();
    keys
}

fn check_rules<G: Game>(rules: &serde_json::Value) -> Result<(), String> {
    let header = cards::game::MatchHeader {
        game: G::ID,
        catalogue: String::new(),
        players: Vec::new(),
        rules: rules.clone(),
    };
    Match::<G>::rules_of(&header)
        .map(|_| ())
        .map_err(|e| match e {
            cards::game::SetupError::Rules(why) => why,
            other => other.to_string(),
        })
}

/// An outcome's reason as the rules core writes it.
pub(crate) fn plain_outcome(_: &View<'_>, reason: &str) -> String {
    reason.to_owned()
}

/// No move to suggest: the rules' first plain move is the primary one.
pub(crate) fn no_suggestion(_: &dyn AnyMatch, _: &mut PanelMemory) -> Option<Action> {
    None
}

/// A prompt's own text (the rules core writes it).
pub(crate) fn plain_prompt(_: &View<'_>, prompt: &Prompt) -> String {
    prompt.text.clone()
}

/// No Japanese captions of the game's own: the label's Japanese part.
pub(crate) fn no_tracker_ja(_: &str) -> Option<&'static str> {
    None
}

/// A card's (English, Japanese) name from the match's own card list, if the game keeps one.
pub(crate) type CardName = fn(&dyn AnyMatch, &str) -> Option<(String, String)>;

/// The cards a picked move of a seat can name, with their labels in the window's language.
pub(crate) type Pickable = fn(&dyn AnyMatch, Seat, Lang) -> Vec<(String, String)>;

/// The state of the match on the table, when it is a match of game `G`.
pub(crate) fn state_of<G: Game>(game: &dyn AnyMatch) -> Option<&G::State> {
    game.as_any().downcast_ref::<Match<G>>().map(Match::state)
}

/// How the start screen sets a match up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// Jaken's own form: a ready-made or registered deck per player, and the house rules.
    JakenForm,
    /// A ready-made deck of the demo set per player, and the optional rules listed.
    ReadyMade {
        /// The optional rules the form switches: (settings key, English, Japanese).
        switches: &'static [(&'static str, &'static str, &'static str)],
    },
    /// A character card of the demo set per player; the shared deck is the set's (Space Junk).
    Characters,
}

impl Start {
    /// The optional rules the start form switches.
    pub(crate) fn switches(self) -> &'static [(&'static str, &'static str, &'static str)] {
        match self {
            Start::ReadyMade { switches } => switches,
            Start::JakenForm | Start::Characters => &[],
        }
    }
}

/// A number a move carries, chosen with a stepper.
pub(crate) struct Param {
    /// The move's type.
    pub move_type: &'static str,
    /// The number's key in the move.
    pub key: &'static str,
    /// Caption in English.
    pub en: &'static str,
    /// Caption in Japanese.
    pub ja: &'static str,
}

/// A number of a game's hand-entered effect: its key in the move, its step, and its caption.
pub(crate) struct Field {
    /// The key in the move.
    pub key: &'static str,
    /// What one tap of − or + changes.
    pub step: i32,
    /// Caption in English.
    pub en: &'static str,
    /// Caption in Japanese.
    pub ja: &'static str,
}

/// A field of an effect form.
pub(crate) const fn field(
    key: &'static str,
    step: i32,
    en: &'static str,
    ja: &'static str,
) -> Field {
    Field { key, step, en, ja }
}

/// A move that names cards the app cannot offer as buttons one by one (a draw, a pair for a
/// power-up): the player taps the cards, in order, from the cards it can be.
pub(crate) struct CardPick {
    /// The move's type.
    pub move_type: &'static str,
    /// A list of cards (`cards`), or one card (`card`).
    pub list: bool,
    /// Other fields of the move.
    pub extra: &'static [(&'static str, &'static str)],
    /// Shown only while the game offers the move (then with the offered number of cards);
    /// otherwise always, folded, with any number of cards (abilities resolved by hand).
    pub offered: bool,
    /// The verb in English.
    pub en: &'static str,
    /// The verb in Japanese.
    pub ja: &'static str,
}

/// A move's own label (the rules core writes it).
pub(crate) fn plain_label(_: &View<'_>, action: &Action) -> String {
    action.label.clone()
}

/// "Turn 3 / 10" / "ターン 3 / 10".
pub(crate) fn plain_turn(view: &View<'_>, of: &str) -> String {
    view.lang.pick(
        format!("Turn {}{of}", view.ctx.turn),
        format!("ターン {}{of}", view.ctx.turn),
    )
}

/// The turn counter is always on.
pub(crate) fn always_counted(_: &View<'_>) -> bool {
    true
}

/// The step and the next one as the rules core writes them.
pub(crate) fn plain_steps(view: &View<'_>) -> (String, String) {
    (view.ctx.phase.step.clone(), view.ctx.phase.next.clone())
}

/// No card names from the match.
pub(crate) fn no_card_names(_: &dyn AnyMatch, _: &str) -> Option<(String, String)> {
    None
}

/// No cards to pick.
pub(crate) fn nothing_to_pick(_: &dyn AnyMatch, _: Seat, _: Lang) -> Vec<(String, String)> {
    Vec::new()
}

/// The move of an action, read back as game `G`'s typed move (`None`: not one of its moves).
pub(crate) fn move_of<G: Game>(action: &Action) -> Option<G::Move> {
    serde_json::from_value(action.input.get("move")?.clone()).ok()
}

/// The whole numbers written in a text, in order ("d6 (2 left)" → 6, 2): what a Japanese
/// sentence takes over from the rules core's English one where the number is the core's to
/// work out (a boosted stat, a budget).
pub(crate) fn numbers_in(text: &str) -> Vec<i64> {
    let mut out = Vec::new();
    let mut digits = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
        } else if !digits.is_empty() {
            if let Ok(n) = digits.parse() {
                out.push(n);
            }
            digits.clear();
        }
    }
    out
}

/// A card's name for a Japanese sentence: its Japanese name, else its English one, else its id.
pub(crate) fn card_ja(names: Option<(String, String)>, id: &str) -> String {
    match names {
        Some((_, ja)) if !ja.is_empty() => ja,
        Some((en, _)) if !en.is_empty() => en,
        _ => id.to_owned(),
    }
}

/// The numbers of a hand-entered effect in Japanese ("ダメージ 2、ドロー 1"), each with its
/// caption; zeros left out.
pub(crate) fn effect_ja(parts: &[(&str, i32)], note: &str) -> String {
    let mut list: Vec<String> = parts
        .iter()
        .filter(|(_, v)| *v != 0)
        .map(|(k, v)| format!("{k} {v:+}"))
        .collect();
    if !note.is_empty() {
        list.push(format!("「{note}」"));
    }
    if list.is_empty() {
        "変化なし".to_owned()
    } else {
        list.join("、")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_in_order() {
        assert_eq!(numbers_in("roll a d6 (12 left)"), [6, 12]);
        assert_eq!(numbers_in("no number"), Vec::<i64>::new());
    }

    #[test]
    fn an_effect_reads_in_japanese() {
        assert_eq!(
            effect_ja(&[("ダメージ", 2), ("ドロー", 0)], ""),
            "ダメージ +2"
        );
        assert_eq!(effect_ja(&[("ダメージ", 0)], ""), "変化なし");
        assert_eq!(effect_ja(&[("ドロー", -1)], "手札"), "ドロー -1、「手札」");
    }
}
