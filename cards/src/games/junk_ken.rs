//! JUNK-拳 (JUNK-KEN): a 2-player card game built on janken, with dice for HP.
//!
//! Follows `rules/junk-ken.md` (the rules digest) and its seed; `docs/rules-junk_ken.md` says how
//! the app implements every rule and every §10 gap. A turn runs:
//!
//! - **S0 set phase begins** (automatic): Clockwise characters turn 90°; every Dice-rolling skill
//!   asks for its die (the players may skip it when no suitable die is at hand).
//! - **S1 set phase**: each player may place a character (HP die), a supporter face down or a gear
//!   (durability die set to the printed number), a field from the extra deck (countdown die), spend
//!   the field die, awaken (HP re-roll), use Haste; then declares the set phase done.
//! - **J0 janken phase**: replacement may be declared, then both hands are entered; the winner's
//!   hand action (ATK/DRAW/HP) and a matching supporter's action resolve from the card data, damage
//!   before healing. Effects the players resolve by hand are entered as `effect` moves.
//! - **J1 janken phase end** (automatic): field dice −1, supporter ages +1; a declared replacement
//!   swaps the character with a hand card (the HP carries over).
//! - **T0 turn end**: Bullet counters are gained (and may be spent), Necromancy may flip a graveyard
//!   card; then supporters that won with their hand, Haste cards and worn-out gear leave.
//!
//! A player loses when the character to be destroyed has no side card left behind it (the 2nd
//! defeat; the 3rd in the draft); both at once is a draw.
//!
//! The app cannot see hands, so it tracks each player's *unplayed* main-deck cards (deck, hand and
//! side together) and the hand, deck and side sizes; a card played must be one of the unplayed
//! cards. Dice never roll inside the engine: they answer the open die prompts.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::core::GameId;
//! use cards::games::junk_ken::{demo_header, JunkKen, Move};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::builtin(GameId::JunkKen).unwrap();
//! let header = demo_header(&cat, ["Aki", "Ben"], ["junk-rush", "clockwork"]).unwrap();
//! let mut m = Match::<JunkKen>::new(header, &cat).unwrap();
//! let mv = Move::PlaceCharacter { player: 0, card: "JK01".into() };
//! let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//! m.commit(p);
//! assert_eq!(m.state().players[0].hand, 3);
//! assert_eq!(m.context().prompts.iter().filter(|p| p.id.starts_with('d')).count(), 1); // the HP die
//! ```

use crate::catalogue::junk_ken::{
    Action, ActionKind, AwakenTarget, DeckRules, Hand, JunkKenCard, SkillIcon,
};
use crate::catalogue::{Card, CardData, Catalogue};
use crate::core::{
    Decision, GameId, Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat,
    Tracker, TrackerId, Violation,
};
use crate::decks::{CopyRef, Deck};
use crate::game::{Game, MatchHeader, PlayerConfig, SetupError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Cards drawn at setup.
pub const START_HAND: i32 = 4;
/// Largest change one `effect` move may enter for a number.
pub const MAX_CHANGE: i32 = 99;
/// Highest HP a manual adjustment may set.
pub const MAX_HP: i32 = 99;

/// Holdings a draft player must exceed before stopping to pick piles (§8).
pub const DRAFT_HOLDINGS: usize = 40;

/// The draft's pack purchase (§8): the pile sizes dealt from `non_ex` main-deck cards and `ex`
/// EX cards. Piles of 5 (an incomplete last pile is not used), one EX card added to each pile in
/// turn; surplus EX cards are not used.
pub fn draft_piles(non_ex: usize, ex: usize) -> Vec<usize> {
    (0..non_ex / 5)
        .map(|i| if i < ex { 6 } else { 5 })
        .collect()
}

/// Picking these piles in order: the number of picks and the holdings when they first exceed
/// [`DRAFT_HOLDINGS`]; `None` if they never do.
pub fn picks_to_pass(piles: &[usize]) -> Option<(usize, usize)> {
    let mut held = 0;
    for (i, p) in piles.iter().enumerate() {
        held += p;
        if held > DRAFT_HOLDINGS {
            return Some((i + 1, held));
        }
    }
    None
}

/// The marker type of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JunkKen;

/// House rules: the gaps of `rules/junk-ken.md` §10 (and the §8 draft variant) that players could
/// settle differently. Every key is optional; the defaults are the digest's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// §8: the draft (pack purchase) variant: 30-card decks, no cost cap, 2 side cards, a loss on
    /// the 3rd defeat, surrender allowed. Default false.
    pub draft: bool,
    /// §2: refuse decks that break the construction rules at setup. Default true.
    pub check_decks: bool,
    /// §10 #2: damage each character takes on a tie (あいこ); "+1 attack" never applies to it.
    /// Default 0 (no standard tie action).
    pub tie_damage: u8,
    /// §10 #3: a tie is thrown again (and does nothing) instead of ending the throw. Default false.
    pub rethrow_ties: bool,
    /// §10 #5: a player with an empty battle zone and cards in hand must place a character.
    /// Default true.
    pub must_place: bool,
    /// §10 #7: healing stops at the HP die's highest face. Default true.
    pub hp_cap: bool,
    /// §10 #8: a matching supporter's action comes on top of the character's (false: instead of
    /// it). Default true.
    pub supporter_adds: bool,
    /// §10 #9: completed turn ends in the battle zone before a character may awaken. Default 2.
    pub awaken_turns: u8,
    /// §10 #11: Bullet counters carry over on replacement too (the FAQ says awakening only).
    /// Default false.
    pub bullet_on_replacement: bool,
    /// §10 #12: Bullet counters may be spent at any time, not only at the turn end. Default false.
    pub bullet_any_time: bool,
    /// §10 #13: a field destroyed by an advantaged field is removed from the game (false: to the
    /// graveyard). Default true.
    pub field_duel_removes: bool,
    /// §10 #14: the replaced character goes back to hand (false: to the graveyard). Default true.
    pub replaced_to_hand: bool,
    /// §10 #14: the declarer's DRAW and HP actions still work while replacing (only ATK damage and
    /// card effects are suppressed). Default true.
    pub replacement_keeps_draw_hp: bool,
    /// §10 #19: Haste may be used in any step, not only the set phase. Default false.
    pub haste_any_time: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            draft: false,
            check_decks: true,
            tie_damage: 0,
            rethrow_ties: false,
            must_place: true,
            hp_cap: true,
            supporter_adds: true,
            awaken_turns: 2,
            bullet_on_replacement: false,
            bullet_any_time: false,
            field_duel_removes: true,
            replaced_to_hand: true,
            replacement_keeps_draw_hp: true,
            haste_any_time: false,
        }
    }
}

impl Rules {
    /// The deck-construction numbers these rules use.
    pub fn deck_rules(&self) -> DeckRules {
        if self.draft {
            DeckRules::DRAFT
        } else {
            DeckRules::STANDARD
        }
    }

    /// Defeats that lose the match: one more than the side cards (2; 3 in the draft).
    pub fn loss_threshold(&self) -> u8 {
        u8::try_from(self.deck_rules().side_cards + 1).unwrap_or(u8::MAX)
    }
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// S0: the set phase begins; Dice-rolling skills wait for their dice.
    SetStart,
    /// S1: both players set cards, then declare the set phase done.
    Set,
    /// J0: replacement may be declared, then janken is thrown.
    Janken,
    /// J0 after the throw: effects resolved by hand are entered; then the janken phase ends.
    Resolve,
    /// J1: a player who declared replacement swaps the character with a hand card (or keeps it).
    Replace,
    /// T0: Bullet counters may be spent and Necromancy used; then the turn ends.
    TurnEnd,
    /// The match is over.
    Over,
}

/// One card in a graveyard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraveCard {
    /// Card id.
    pub card: String,
    /// Turned face down by Necromancy: it has no card data.
    pub face_down: bool,
}

/// The character in a battle zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    /// The cards of the character, bottom first; the last is the top card (an awakening card
    /// after awakening) whose data the character uses.
    pub stack: Vec<String>,
    /// Current HP (体力); 0 until the HP die is rolled.
    pub hp: i32,
    /// Faces of the HP die.
    pub hp_die: u8,
    /// False while the HP die is still owed.
    pub hp_rolled: bool,
    /// Completed turn ends in the battle zone (for awakening).
    pub turns: u32,
    /// Clockwise rotation in degrees (0 = upright), for Clockwise characters.
    pub rotation: Option<u16>,
    /// Bullet counters.
    pub bullet: u8,
    /// A Dice-rolling skill's condition held at the last set phase start.
    pub dice_active: bool,
}

impl Character {
    /// The top card's id.
    pub fn top(&self) -> &str {
        self.stack.last().map_or("", String::as_str)
    }
}

/// What lies in a support zone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Support {
    /// Nothing.
    #[default]
    Empty,
    /// A supporter (a card face down, or face up after Haste).
    Supporter {
        /// Card id (kept secret by the UI while face down).
        card: String,
        /// Janken phases ended since it was placed; at 2 it is destroyed.
        age: u8,
        /// Its owner won with its attribute this turn: destroyed at the turn end.
        won: bool,
        /// Turned face up by Haste: +1 to its action, destroyed at the turn end.
        face_up: bool,
    },
    /// A gear card face up with its durability die.
    Gear {
        /// Card id.
        card: String,
        /// The durability die; below 1 the gear is removed at the turn end.
        durability: i32,
    },
}

/// A field card in a field zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// Card id.
    pub card: String,
    /// The countdown die.
    pub die: i32,
    /// The turn it was placed (a field placed the same turn is safe from the attribute duel).
    pub placed_turn: u32,
}

/// One player's side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The name at the table.
    pub name: String,
    /// Cards in hand.
    pub hand: i32,
    /// Cards in the deck (山札).
    pub deck: i32,
    /// Cards in the side zone (サイド).
    pub side: i32,
    /// Main-deck card ids not in play, graveyard or removed (deck, hand and side), sorted.
    pub unplayed: Vec<String>,
    /// Extra-deck card ids still in the extra deck, sorted.
    pub extra: Vec<String>,
    /// The graveyard (墓地), oldest first.
    pub graveyard: Vec<GraveCard>,
    /// Cards removed from the game (ゲームから除外), in order.
    pub removed: Vec<String>,
    /// The battle zone.
    pub character: Option<Character>,
    /// The support zone.
    pub support: Support,
    /// The field zone.
    pub field: Option<Field>,
    /// Characters of this player destroyed so far.
    pub defeated: u8,
    /// Extra damage of this player's character's ATK actions ("+1 attack" effects, set by hand).
    pub atk_bonus: i32,
    /// Declared the set phase done this turn.
    pub set_done: bool,
    /// A declared replacement (交代) still to be carried out.
    pub replacing: bool,
    /// Declared replacement this turn (no Bullet counter, no Necromancy this turn end).
    pub declared_replacement: bool,
    /// The hand thrown this turn.
    pub thrown: Option<Hand>,
    /// A character of this player was destroyed this turn.
    pub destroyed_this_turn: bool,
    /// Necromancy may flip a graveyard card this turn end.
    pub necromancy_ready: bool,
    /// Surrendered (draft variant).
    pub surrendered: bool,
}

impl PlayerState {
    fn take_unplayed(&mut self, card: &str) -> bool {
        match self.unplayed.binary_search_by(|c| c.as_str().cmp(card)) {
            Ok(i) => {
                self.unplayed.remove(i);
                true
            }
            Err(_) => false,
        }
    }
    fn put_unplayed(&mut self, card: String) {
        let i = self
            .unplayed
            .binary_search(&card)
            .unwrap_or_else(|insert| insert);
        self.unplayed.insert(i, card);
    }
    fn holds(&self, card: &str) -> bool {
        self.unplayed
            .binary_search_by(|c| c.as_str().cmp(card))
            .is_ok()
    }
    fn has_extra(&self, card: &str) -> bool {
        self.extra
            .binary_search_by(|c| c.as_str().cmp(card))
            .is_ok()
    }
}

/// What an open die prompt is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "for", rename_all = "kebab-case")]
pub enum DiePurpose {
    /// The HP die of a character placed or awakened.
    Hp,
    /// A Dice-rolling skill's dice: the total so far and the dice still to roll.
    DiceSkill {
        /// Sum of the dice rolled so far.
        total: u32,
        /// Dice still owed.
        left: u8,
    },
    /// Necromancy's random pick among the face-down cards of a graveyard.
    Necromancy {
        /// Whose graveyard.
        graveyard: Seat,
    },
}

/// One open die prompt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieAsk {
    /// Prompt id (`d1`, `d2`, …).
    pub id: String,
    /// Who rolls.
    pub seat: Seat,
    /// Faces.
    pub sides: u8,
    /// What it is for.
    pub purpose: DiePurpose,
}

/// The last throw's result, for the table screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JankenReport {
    /// Turn.
    pub turn: u32,
    /// The hands by seat.
    pub hands: [Hand; 2],
    /// The winner; `None` on a tie.
    pub winner: Option<Seat>,
    /// What happened, in sentences.
    pub notes: Vec<String>,
}

/// Game-wide numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Turn number, from 1.
    pub turn: u32,
    /// Current step.
    pub step: Step,
    /// Open die prompts, oldest first.
    pub dice: Vec<DieAsk>,
    /// Counter for prompt ids.
    pub next_die: u32,
    /// The last throw.
    pub last_janken: Option<JankenReport>,
}

/// The card data the game needs, copied from the catalogue at setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInfo {
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Rules text (CHARACTER SKILL, gear or field effect).
    pub text: String,
    /// The card's data.
    pub data: JunkKenCard,
}

impl CardInfo {
    /// `ネジ丸 (Screw-Maru)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.name_ja, self.name_en)
    }
    fn bullet(&self) -> Option<(u8, &[Hand], u8)> {
        self.data.icons().iter().find_map(|i| match i {
            SkillIcon::Bullet {
                level,
                marked_hands,
                cost,
            } => Some((*level, marked_hands.as_slice(), *cost)),
            _ => None,
        })
    }
    fn necromancy(&self) -> Option<&[Hand]> {
        self.data.icons().iter().find_map(|i| match i {
            SkillIcon::Necromancy { marked_hands } => Some(marked_hands.as_slice()),
            _ => None,
        })
    }
    fn clockwise(&self) -> bool {
        self.data.icons().contains(&SkillIcon::Clockwise)
    }
    fn haste(&self) -> bool {
        self.data.icons().contains(&SkillIcon::Haste)
    }
    fn dice_roll(&self) -> Option<(&crate::catalogue::junk_ken::DiceRoll, &str)> {
        self.data.icons().iter().find_map(|i| match i {
            SkillIcon::DiceRolling { roll, effect } => Some((roll, effect.as_str())),
            _ => None,
        })
    }
}

/// The whole state of a JUNK-KEN match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// House rules.
    pub rules: Rules,
    /// Card data by id (shared: it never changes during a match).
    pub cards: Arc<BTreeMap<String, CardInfo>>,
    /// The two players.
    pub players: [PlayerState; 2],
    /// Turn, step, open dice.
    pub table: Table,
}

/// A move at the JUNK-KEN table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Move {
    /// S0: no suitable die is at hand (or finding it takes too long): the player's Dice-rolling
    /// skill does not fire this turn.
    SkipDiceRoll {
        /// Whose skill.
        player: Seat,
    },
    /// S1: a hand card face up into the empty battle zone; its HP die is owed.
    PlaceCharacter {
        /// Who places.
        player: Seat,
        /// Card id.
        card: String,
    },
    /// S1: a hand card face down into the empty support zone (the supporter).
    PlaceSupporter {
        /// Who places.
        player: Seat,
        /// Card id (the UI keeps it secret).
        card: String,
    },
    /// S1: a gear card face up into the empty support zone, its die on the durability.
    PlaceGear {
        /// Who places.
        player: Seat,
        /// Card id.
        card: String,
    },
    /// S1: a field card from the extra deck into the empty field zone, its die on the count.
    PlaceField {
        /// Who places.
        player: Seat,
        /// Card id.
        card: String,
    },
    /// S1: lower the own field die by the printed amount to use its effect.
    SpendField {
        /// Whose field.
        player: Seat,
    },
    /// S1: stack an awakening card from the extra deck on the character; the HP die is re-rolled.
    Awaken {
        /// Who awakens.
        player: Seat,
        /// The awakening card id.
        card: String,
    },
    /// S1: Haste: turn the own supporter face up (+1 to its action; destroyed at the turn end).
    Haste {
        /// Whose supporter.
        player: Seat,
    },
    /// S1: the player is done setting cards.
    EndSet {
        /// Who is done.
        player: Seat,
    },
    /// J0: declare replacement (交代) before the throw.
    DeclareReplacement {
        /// Who declares.
        player: Seat,
    },
    /// J0: both hands as thrown (seat 0's and seat 1's).
    Janken {
        /// Seat 0's hand.
        hand0: Hand,
        /// Seat 1's hand.
        hand1: Hand,
    },
    /// Any time: one of the printed events of the player's gear happened: its die −1.
    GearEvent {
        /// Whose gear.
        player: Seat,
    },
    /// J0 → J1: the janken phase ends (field dice −1, supporters age, replacement).
    EndJanken,
    /// J1: swap the character that declared replacement with a hand card; the HP carries over.
    Replace {
        /// Who replaces.
        player: Seat,
        /// The new character's card id.
        card: String,
    },
    /// J1: the player declared replacement but keeps the character.
    KeepCharacter {
        /// Who keeps.
        player: Seat,
    },
    /// T0: remove the printed number of Bullet counters to use the effect (enter its result with
    /// `effect`).
    SpendBullet {
        /// Whose character.
        player: Seat,
    },
    /// T0: Necromancy: flip a graveyard card. With `card`, that face-up card goes face down;
    /// without, one of the face-down cards (a die picks which when there are several) goes face up.
    Necromancy {
        /// Whose character's skill.
        player: Seat,
        /// Whose graveyard (seat).
        graveyard: Seat,
        /// The face-up card to turn face down; `None` for a face-down card, picked at random.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
    },
    /// T0 → next turn: the turn ends.
    EndTurn,
    /// Any time: the result of an effect the players resolved by hand (skill text, field, gear,
    /// Bullet, Clockwise, Dice rolling). Damage is settled before healing.
    Effect {
        /// Whose effect.
        player: Seat,
        /// Damage to the opposing character.
        #[serde(default)]
        damage: i32,
        /// Damage to the player's own character.
        #[serde(default)]
        self_damage: i32,
        /// HP the player's own character gets back.
        #[serde(default)]
        heal: i32,
        /// Cards the player draws.
        #[serde(default)]
        draw: i32,
        /// What the effect did, in the players' words.
        #[serde(default)]
        note: String,
    },
    /// Draft variant: surrender (サレンダー) after taking the last side card with no deck and hand.
    Surrender {
        /// Who surrenders.
        player: Seat,
    },
}

/// One change of a JUNK-KEN state: a player's side or the table replaced by its new value.
///
/// `decide` computes the new state on a scratch copy; its events are the parts that changed, so
/// `apply` only assigns and the match is the fold of its events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A player's side after the move.
    Player(Seat, Box<PlayerState>),
    /// The table after the move.
    Table(Box<Table>),
}

fn other(seat: Seat) -> Seat {
    1 - seat
}

fn check_seat(seat: Seat) -> Result<(), Impossible> {
    if seat < 2 {
        Ok(())
    } else {
        Err(Impossible::new(format!(
            "JUNK-KEN has seats 0 and 1, not {seat}"
        )))
    }
}

/// A header for a match with decks from a catalogue's ready-made decks.
pub fn demo_header(
    catalogue: &Catalogue,
    names: [&str; 2],
    decks: [&str; 2],
) -> Result<MatchHeader, SetupError> {
    MatchHeader::with_ready_made_decks(GameId::JunkKen, catalogue, &names, &decks)
}

const REF_SET: &str = "junk-ken.md §3 S1; seed バトルゾーン・サポートゾーン・フィールドゾーン";
const REF_PHASE: &str = "junk-ken.md §3";

fn step_text(state: &State) -> String {
    let t = state.table.turn;
    match state.table.step {
        Step::SetStart => format!("turn {t} S0: set phase begins (Dice-rolling skills roll)"),
        Step::Set => format!("turn {t} S1: set phase"),
        Step::Janken => format!("turn {t} J0: janken phase (replacement, then the throw)"),
        Step::Resolve => format!("turn {t} J0: after the throw (effects by hand)"),
        Step::Replace => format!("turn {t} J1: janken phase end (replacement swap)"),
        Step::TurnEnd => format!("turn {t} T0: turn end (Bullet, Necromancy)"),
        Step::Over => "the end of the match".to_owned(),
    }
}

fn wrong_step(state: &State, what: &str, when: &str) -> Violation {
    Violation::new(
        "junk-ken.phase",
        format!(
            "{what} belongs to {when}; the match is at {}.",
            step_text(state)
        ),
        REF_PHASE,
    )
}

/// A scratch copy of the state that a move changes; its events are the parts that changed.
struct Scratch<'a> {
    before: &'a State,
    s: State,
    notes: Vec<String>,
}

impl<'a> Scratch<'a> {
    fn new(state: &'a State) -> Self {
        Scratch {
            before: state,
            s: state.clone(),
            notes: Vec::new(),
        }
    }

    fn done(self, violations: Vec<Violation>) -> Decision<Event> {
        let mut events = Vec::new();
        for seat in 0..2 {
            if self.s.players[seat] != self.before.players[seat] {
                events.push(Event::Player(seat, Box::new(self.s.players[seat].clone())));
            }
        }
        if self.s.table != self.before.table {
            events.push(Event::Table(Box::new(self.s.table.clone())));
        }
        Decision { events, violations }
    }

    fn card(&self, id: &str) -> Option<&CardInfo> {
        self.s.cards.get(id)
    }

    fn top(&self, seat: Seat) -> Option<CardInfo> {
        let id = self.s.players[seat].character.as_ref()?.top().to_owned();
        self.card(&id).cloned()
    }

    fn ask(&mut self, seat: Seat, sides: u8, purpose: DiePurpose) {
        self.s.table.next_die += 1;
        let id = format!("d{}", self.s.table.next_die);
        self.s.table.dice.push(DieAsk {
            id,
            seat,
            sides,
            purpose,
        });
    }

    fn drop_asks(&mut self, seat: Seat, hp_and_skill: bool) {
        self.s.table.dice.retain(|d| {
            !(d.seat == seat
                && hp_and_skill
                && matches!(d.purpose, DiePurpose::Hp | DiePurpose::DiceSkill { .. }))
        });
    }

    fn bury(&mut self, seat: Seat, card: String) {
        self.s.players[seat].graveyard.push(GraveCard {
            card,
            face_down: false,
        });
    }

    fn remove_gear(&mut self, seat: Seat, why: &str) {
        if let Support::Gear { card, .. } = &self.s.players[seat].support {
            let card = card.clone();
            self.notes.push(format!(
                "{}'s gear {} is removed from the game ({why})",
                self.s.players[seat].name,
                self.label(&card)
            ));
            self.s.players[seat].support = Support::Empty;
            self.s.players[seat].removed.push(card);
        }
    }

    fn label(&self, id: &str) -> String {
        self.card(id).map_or_else(|| id.to_owned(), CardInfo::label)
    }

    fn is_extra(&self, id: &str) -> bool {
        self.card(id).is_some_and(|c| c.data.is_extra())
    }

    /// The character is destroyed: stack to graveyard / removed, gear removed, side to hand.
    fn destroy(&mut self, seat: Seat) {
        let Some(ch) = self.s.players[seat].character.take() else {
            return;
        };
        self.drop_asks(seat, true);
        for card in ch.stack {
            if self.is_extra(&card) {
                self.s.players[seat].removed.push(card);
            } else {
                self.bury(seat, card);
            }
        }
        self.remove_gear(seat, "its character left the battle zone");
        let p = &mut self.s.players[seat];
        p.defeated = p.defeated.saturating_add(1);
        p.destroyed_this_turn = true;
        p.necromancy_ready = false;
        p.replacing = false;
        let mut note = format!(
            "{}'s character is destroyed (defeat {})",
            p.name, p.defeated
        );
        if p.side > 0 {
            p.side -= 1;
            p.hand += 1;
            note.push_str("; the side card goes to hand");
        }
        self.notes.push(note);
    }

    /// Damage, then healing (seed FAQ: damage first; HP ≤ 0 destroys and the heal is void).
    fn settle(&mut self, damage: [i32; 2], heal: [i32; 2]) {
        for seat in 0..2 {
            let cap = self.s.rules.hp_cap;
            let name = self.s.players[seat].name.clone();
            let Some(ch) = self.s.players[seat].character.as_mut() else {
                continue;
            };
            if damage[seat] != 0 {
                ch.hp -= damage[seat];
                self.notes
                    .push(format!("{name}'s character takes {} damage", damage[seat]));
            }
            if ch.hp <= 0 && (damage[seat] > 0 || ch.hp_rolled) {
                self.destroy(seat);
                continue;
            }
            if heal[seat] != 0 {
                let max = if cap { i32::from(ch.hp_die) } else { MAX_HP };
                ch.hp = (ch.hp + heal[seat]).min(max.max(ch.hp)).max(1);
                self.notes.push(format!(
                    "{name}'s character gets {} HP back (HP {})",
                    heal[seat], ch.hp
                ));
            }
        }
        self.check_over();
    }

    fn draw(&mut self, seat: Seat, n: i32) {
        let p = &mut self.s.players[seat];
        let got = n.min(p.deck).max(0);
        p.deck -= got;
        p.hand += got;
        if got > 0 {
            self.notes.push(format!("{} draws {got}", p.name));
        }
        if got < n {
            self.notes.push(format!(
                "{}'s deck is empty: {} card(s) not drawn",
                p.name,
                n - got
            ));
        }
    }

    fn check_over(&mut self) {
        if JunkKen::outcome(&self.s).is_some() {
            self.s.table.step = Step::Over;
            self.s.table.dice.clear();
        }
    }

    /// S0: a turn's set phase begins.
    fn begin_set(&mut self) {
        for seat in 0..2 {
            let p = &mut self.s.players[seat];
            p.set_done = false;
            p.replacing = false;
            p.declared_replacement = false;
            p.thrown = None;
            p.destroyed_this_turn = false;
            p.necromancy_ready = false;
        }
        for seat in 0..2 {
            let top = self.top(seat);
            let name = self.s.players[seat].name.clone();
            if let Some(ch) = self.s.players[seat].character.as_mut() {
                if let Some(r) = ch.rotation {
                    let r = (r + 90) % 360;
                    ch.rotation = Some(r);
                    if r == 0 {
                        self.notes.push(format!(
                            "{name}'s Clockwise character is upright: its effect may be used"
                        ));
                    }
                }
                ch.dice_active = false;
                if let Some((roll, _)) = top.as_ref().and_then(CardInfo::dice_roll) {
                    let (dice, sides) = (roll.dice, roll.sides);
                    self.ask(
                        seat,
                        sides,
                        DiePurpose::DiceSkill {
                            total: 0,
                            left: dice,
                        },
                    );
                }
            }
        }
        self.s.table.step = Step::SetStart;
        self.leave_set_start();
    }

    fn leave_set_start(&mut self) {
        if self.s.table.step == Step::SetStart
            && !self
                .s
                .table
                .dice
                .iter()
                .any(|d| matches!(d.purpose, DiePurpose::DiceSkill { .. }))
        {
            self.s.table.step = Step::Set;
        }
    }

    fn maybe_janken(&mut self) {
        if self.s.table.step == Step::Set && self.s.players.iter().all(|p| p.set_done) {
            self.s.table.step = Step::Janken;
        }
    }

    /// J1: the janken phase ends.
    fn end_janken(&mut self) {
        for seat in 0..2 {
            let name = self.s.players[seat].name.clone();
            if let Some(f) = self.s.players[seat].field.as_mut() {
                f.die -= 1;
                if f.die < 1 {
                    let card = f.card.clone();
                    self.s.players[seat].field = None;
                    self.notes.push(format!(
                        "{name}'s field {} counts down below 1: removed from the game",
                        self.label(&card)
                    ));
                    self.s.players[seat].removed.push(card);
                }
            }
            if let Support::Supporter { card, age, .. } = &mut self.s.players[seat].support {
                *age += 1;
                if *age >= 2 {
                    let card = card.clone();
                    self.s.players[seat].support = Support::Empty;
                    self.notes.push(format!(
                        "{name}'s supporter has seen 2 janken phases end: destroyed"
                    ));
                    self.bury(seat, card);
                }
            }
        }
        if (0..2).any(|s| self.s.players[s].replacing && self.s.players[s].character.is_some()) {
            self.s.table.step = Step::Replace;
        } else {
            self.begin_turn_end();
        }
    }

    /// T0: the turn end begins: Bullet counters are gained, Necromancy is readied.
    fn begin_turn_end(&mut self) {
        for seat in 0..2 {
            let top = self.top(seat);
            let p = &mut self.s.players[seat];
            let (Some(ch), Some(top), Some(hand)) = (p.character.as_mut(), top, p.thrown) else {
                continue;
            };
            if p.declared_replacement || p.destroyed_this_turn {
                continue;
            }
            if let Some((level, marked, _)) = top.bullet()
                && marked.contains(&hand)
            {
                let before = ch.bullet;
                ch.bullet = (ch.bullet + 1).min(level);
                let name = p.name.clone();
                self.notes.push(format!(
                    "{name}'s Bullet character threw its marked hand: counters {before} → {}",
                    self.s.players[seat]
                        .character
                        .as_ref()
                        .map_or(0, |c| c.bullet)
                ));
            }
            let p = &mut self.s.players[seat];
            if top.necromancy().is_some_and(|m| m.contains(&hand)) {
                p.necromancy_ready = true;
            }
        }
        self.s.table.step = Step::TurnEnd;
    }

    /// T0 ends: supporters that won, Haste cards and worn-out gear leave; the next turn begins.
    fn end_turn(&mut self) {
        for seat in 0..2 {
            let name = self.s.players[seat].name.clone();
            match &self.s.players[seat].support {
                Support::Supporter {
                    card, won, face_up, ..
                } if *won || *face_up => {
                    let card = card.clone();
                    let why = if *won {
                        "won with its attribute this turn"
                    } else {
                        "was turned face up by Haste"
                    };
                    self.notes
                        .push(format!("{name}'s supporter {why}: destroyed"));
                    self.s.players[seat].support = Support::Empty;
                    self.bury(seat, card);
                }
                Support::Gear { durability, .. } if *durability < 1 => {
                    self.remove_gear(seat, "its durability fell below 1 this turn");
                }
                _ => {}
            }
            if let Some(ch) = self.s.players[seat].character.as_mut() {
                ch.turns += 1;
            }
        }
        self.s.table.turn += 1;
        self.begin_set();
    }

    fn place_character(&mut self, seat: Seat, card: &str, info: &CardInfo) {
        let p = &mut self.s.players[seat];
        p.take_unplayed(card);
        p.hand -= 1;
        p.character = Some(Character {
            stack: vec![card.to_owned()],
            hp: 0,
            hp_die: info.data.hp_die().unwrap_or(6),
            hp_rolled: false,
            turns: 0,
            rotation: info.clockwise().then_some(90),
            bullet: 0,
            dice_active: false,
        });
        let sides = info.data.hp_die().unwrap_or(6);
        self.ask(seat, sides, DiePurpose::Hp);
    }

    /// The janken result: the winner's action and a matching supporter's, then settling.
    fn resolve(&mut self, hands: [Hand; 2]) {
        for (seat, hand) in hands.iter().enumerate() {
            self.s.players[seat].thrown = Some(*hand);
        }
        let turn = self.s.table.turn;
        if hands[0] == hands[1] {
            if self.s.rules.rethrow_ties {
                self.notes
                    .push("あいこ (tie): thrown again (house rule)".to_owned());
                self.report(turn, hands, None);
                return;
            }
            self.notes.push("あいこ (tie)".to_owned());
            let d = i32::from(self.s.rules.tie_damage);
            self.settle([d, d], [0, 0]);
            self.report(turn, hands, None);
            if self.s.table.step != Step::Over {
                self.s.table.step = Step::Resolve;
            }
            return;
        }
        let w = if hands[0].beats(hands[1]) { 0 } else { 1 };
        let h = hands[w];
        let name = self.s.players[w].name.clone();
        self.notes.push(format!("{name} wins with {h}"));
        let replacing = self.s.players[w].replacing;
        let mut damage = [0; 2];
        let mut heal = [0; 2];
        let mut draw = 0;
        let supporter = match &self.s.players[w].support {
            Support::Supporter { card, face_up, .. } => self
                .card(card)
                .and_then(|c| match &c.data {
                    JunkKenCard::Character(ch) => ch.supporter.clone(),
                    _ => None,
                })
                .filter(|sup| sup.hand == h)
                .map(|sup| (sup, *face_up)),
            _ => None,
        };
        let mut act = |this: &mut Self, a: Action, bonus: i32, who: &str| {
            if replacing && (a.kind == ActionKind::Atk || !this.s.rules.replacement_keeps_draw_hp) {
                this.notes.push(format!(
                    "{who}'s {a} does nothing: {name} declared replacement"
                ));
                return;
            }
            let v = i32::from(a.value);
            match a.kind {
                ActionKind::Atk => {
                    if this.s.players[other(w)].character.is_some() {
                        damage[other(w)] += (v + bonus).max(0);
                    } else {
                        this.notes
                            .push(format!("{who}'s {a} has no character to hit"));
                    }
                }
                ActionKind::Draw => draw += v,
                ActionKind::Hp => heal[w] += v,
            }
        };
        let hp_rolled = self.s.players[w]
            .character
            .as_ref()
            .is_some_and(|c| c.hp_rolled);
        let char_acts = supporter.is_none() || self.s.rules.supporter_adds;
        if let Some(top) = self.top(w)
            && hp_rolled
            && char_acts
        {
            match top.data.actions().and_then(|a| a.get(h)) {
                Some(a) => {
                    let bonus = self.s.players[w].atk_bonus;
                    act(self, a, bonus, "the character");
                }
                None => self
                    .notes
                    .push(format!("{} prints no action for {h}", top.label())),
            }
        }
        if let Some((sup, face_up)) = supporter {
            let mut a = sup.action;
            if face_up {
                a.value = a.value.saturating_add(1);
            }
            act(self, a, 0, "the supporter");
            if !sup.skill.is_empty() && !sup.passive {
                if replacing {
                    self.notes
                        .push("the SUPPORT SKILL cannot be used while replacing".to_owned());
                } else {
                    self.notes
                        .push(format!("SUPPORT SKILL to resolve: {}", sup.skill));
                }
            }
            if let Support::Supporter { won, .. } = &mut self.s.players[w].support {
                *won = true;
            }
        }
        self.settle(damage, heal);
        if draw > 0 {
            self.draw(w, draw);
        }
        self.report(turn, hands, Some(w));
        if self.s.table.step != Step::Over {
            self.s.table.step = Step::Resolve;
        }
    }

    fn report(&mut self, turn: u32, hands: [Hand; 2], winner: Option<Seat>) {
        self.s.table.last_janken = Some(JankenReport {
            turn,
            hands,
            winner,
            notes: self.notes.clone(),
        });
    }
}

impl State {
    fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("?", |p| p.name.as_str())
    }

    fn card(&self, id: &str) -> Result<&CardInfo, Impossible> {
        self.cards
            .get(id)
            .ok_or_else(|| Impossible::new(format!("card `{id}` is in neither player's deck")))
    }

    /// The top card of a seat's character.
    pub fn top(&self, seat: Seat) -> Option<&CardInfo> {
        let ch = self.players.get(seat)?.character.as_ref()?;
        self.cards.get(ch.top())
    }

    fn label(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label)
    }

    fn in_set(&self) -> bool {
        self.table.step == Step::Set
    }

    fn owes_hp(&self, seat: Seat) -> bool {
        self.table
            .dice
            .iter()
            .any(|d| d.seat == seat && d.purpose == DiePurpose::Hp)
    }
}

fn awaken_target_ok(target: &AwakenTarget, base: &CardInfo) -> bool {
    match target {
        AwakenTarget::Character(name) => base.name_ja == *name || base.name_en == *name,
        AwakenTarget::Category(cat) => base.data.categories().iter().any(|c| c == cat),
    }
}

fn build_deck(p: &PlayerConfig, rules: &Rules, catalogue: &Catalogue) -> Deck {
    let mut main = Vec::new();
    let mut extra = Vec::new();
    let mut count: BTreeMap<&str, u16> = BTreeMap::new();
    for id in &p.deck {
        let n = count.entry(id.as_str()).or_default();
        *n = n.saturating_add(1);
        let copy = CopyRef {
            card: id.clone(),
            copy: *n,
        };
        if catalogue
            .card(id)
            .and_then(Card::junk_ken)
            .is_some_and(JunkKenCard::is_extra)
        {
            extra.push(copy);
        } else {
            main.push(copy);
        }
    }
    main.sort();
    extra.sort();
    Deck {
        game: GameId::JunkKen,
        set: catalogue.set.id.clone(),
        name: p.deck_name.clone(),
        owner: p.name.clone(),
        variant: rules
            .draft
            .then(|| crate::catalogue::junk_ken::DRAFT.to_owned()),
        main,
        extra,
    }
}

impl Game for JunkKen {
    const ID: GameId = GameId::JunkKen;
    type State = State;
    type Move = Move;
    type Event = Event;
    type Rules = Rules;

    fn setup(
        players: &[PlayerConfig],
        rules: &Rules,
        catalogue: &Catalogue,
    ) -> Result<State, SetupError> {
        if players.len() != 2 {
            return Err(SetupError::PlayerCount {
                game: GameId::JunkKen,
                expected: "2".into(),
                got: players.len(),
            });
        }
        let mut cards = BTreeMap::new();
        let mut seats = Vec::new();
        let side = i32::try_from(rules.deck_rules().side_cards).unwrap_or(1);
        for p in players {
            for id in &p.deck {
                let Some(Card {
                    name_ja,
                    name_en,
                    text,
                    data: CardData::JunkKen(data),
                    ..
                }) = catalogue.card(id)
                else {
                    return Err(SetupError::UnknownCard {
                        player: p.name.clone(),
                        card: id.clone(),
                        catalogue: catalogue.set.id.clone(),
                    });
                };
                cards.insert(
                    id.clone(),
                    CardInfo {
                        name_ja: name_ja.clone(),
                        name_en: name_en.clone(),
                        text: text.clone(),
                        data: data.clone(),
                    },
                );
            }
            let deck = build_deck(p, rules, catalogue);
            if rules.check_decks {
                let violations = crate::catalogue::junk_ken::check_deck(&deck, catalogue);
                if !violations.is_empty() {
                    return Err(SetupError::IllegalDeck {
                        player: p.name.clone(),
                        violations,
                    });
                }
            }
            let main = i32::try_from(deck.main.len()).unwrap_or(0);
            let hand = START_HAND.min(main);
            let side = side.min(main - hand);
            seats.push(PlayerState {
                name: p.name.clone(),
                hand,
                deck: main - hand - side,
                side,
                unplayed: deck.main_ids(),
                extra: deck.extra_ids(),
                graveyard: Vec::new(),
                removed: Vec::new(),
                character: None,
                support: Support::Empty,
                field: None,
                defeated: 0,
                atk_bonus: 0,
                set_done: false,
                replacing: false,
                declared_replacement: false,
                thrown: None,
                destroyed_this_turn: false,
                necromancy_ready: false,
                surrendered: false,
            });
        }
        let [a, b]: [PlayerState; 2] = seats.try_into().map_err(|_| SetupError::PlayerCount {
            game: GameId::JunkKen,
            expected: "2".into(),
            got: players.len(),
        })?;
        Ok(State {
            rules: rules.clone(),
            cards: Arc::new(cards),
            players: [a, b],
            table: Table {
                turn: 1,
                step: Step::Set,
                dice: Vec::new(),
                next_die: 0,
                last_janken: None,
            },
        })
    }

    fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
        if state.table.step == Step::Over {
            return Err(Impossible::new("the match is over"));
        }
        let mut t = Scratch::new(state);
        let mut v = Vec::new();
        let step = state.table.step;
        match mv {
            Move::SkipDiceRoll { player } => {
                check_seat(*player)?;
                let before = t.s.table.dice.len();
                t.s.table.dice.retain(|d| {
                    !(d.seat == *player && matches!(d.purpose, DiePurpose::DiceSkill { .. }))
                });
                if t.s.table.dice.len() == before {
                    return Err(Impossible::new(format!(
                        "{} has no Dice-rolling skill waiting for a die",
                        state.name(*player)
                    )));
                }
                t.leave_set_start();
            }
            Move::PlaceCharacter { player, card } => {
                check_seat(*player)?;
                let info = state.card(card)?.clone();
                let p = &state.players[*player];
                if !matches!(info.data, JunkKenCard::Character(_)) {
                    return Err(Impossible::new(format!(
                        "{} is a {} card, not a character",
                        info.label(),
                        info.data.kind_name()
                    )));
                }
                if !p.holds(card) || p.hand < 1 {
                    return Err(Impossible::new(format!(
                        "{} has no {} in hand",
                        p.name,
                        info.label()
                    )));
                }
                if !state.in_set() {
                    v.push(wrong_step(
                        state,
                        "Placing a character",
                        "the set phase (S1)",
                    ));
                }
                if p.character.is_some() {
                    v.push(Violation::new(
                        "junk-ken.battle-zone-occupied",
                        format!(
                            "{}'s battle zone already holds a character; a new one is placed only when it is empty.",
                            p.name
                        ),
                        REF_SET,
                    ));
                    // Overridden: the old character goes to the graveyard.
                    if let Some(old) = t.s.players[*player].character.take() {
                        t.drop_asks(*player, true);
                        for c in old.stack {
                            t.bury(*player, c);
                        }
                    }
                }
                t.s.players[*player].set_done = false;
                t.place_character(*player, card, &info);
            }
            Move::PlaceSupporter { player, card } | Move::PlaceGear { player, card } => {
                check_seat(*player)?;
                let gear = matches!(mv, Move::PlaceGear { .. });
                let info = state.card(card)?.clone();
                let p = &state.players[*player];
                if info.data.is_extra() {
                    return Err(Impossible::new(format!(
                        "{} is an extra-deck card; it never goes to the support zone",
                        info.label()
                    )));
                }
                if gear && !matches!(info.data, JunkKenCard::Gear(_)) {
                    return Err(Impossible::new(format!(
                        "{} is not a gear card",
                        info.label()
                    )));
                }
                if !p.holds(card) || p.hand < 1 {
                    return Err(Impossible::new(format!(
                        "{} has no {} in hand",
                        p.name,
                        info.label()
                    )));
                }
                if !state.in_set() {
                    v.push(wrong_step(
                        state,
                        if gear {
                            "Placing a gear"
                        } else {
                            "Placing a supporter"
                        },
                        "the set phase (S1)",
                    ));
                }
                match &p.support {
                    Support::Empty => {}
                    Support::Gear { .. } => v.push(Violation::new(
                        "junk-ken.support-zone-occupied",
                        format!(
                            "{}'s support zone holds a gear; while it is there no other card may be placed in the support zone.",
                            p.name
                        ),
                        "junk-ken.md §3 S1; seed ギアカード「新たにほかのカードをサポートゾーンに置くことはできません」",
                    )),
                    Support::Supporter { .. } => v.push(Violation::new(
                        "junk-ken.support-zone-occupied",
                        format!(
                            "{}'s support zone already holds a supporter; a card is placed only when it is empty.",
                            p.name
                        ),
                        REF_SET,
                    )),
                }
                match std::mem::take(&mut t.s.players[*player].support) {
                    Support::Supporter { card, .. } => t.bury(*player, card),
                    Support::Gear { card, .. } => t.s.players[*player].removed.push(card),
                    Support::Empty => {}
                }
                let p = &mut t.s.players[*player];
                p.take_unplayed(card);
                p.hand -= 1;
                p.support = match &info.data {
                    JunkKenCard::Gear(g) if gear => Support::Gear {
                        card: card.clone(),
                        durability: i32::from(g.durability),
                    },
                    _ => Support::Supporter {
                        card: card.clone(),
                        age: 0,
                        won: false,
                        face_up: false,
                    },
                };
            }
            Move::PlaceField { player, card } => {
                check_seat(*player)?;
                let info = state.card(card)?.clone();
                let JunkKenCard::Field(field) = &info.data else {
                    return Err(Impossible::new(format!(
                        "{} is not a field card",
                        info.label()
                    )));
                };
                let p = &state.players[*player];
                if !p.has_extra(card) {
                    return Err(Impossible::new(format!(
                        "{} is not in {}'s extra deck",
                        info.label(),
                        p.name
                    )));
                }
                if !state.in_set() {
                    v.push(wrong_step(state, "Placing a field", "the set phase (S1)"));
                }
                if let Some(f) = &p.field {
                    v.push(Violation::new(
                        "junk-ken.field-zone-occupied",
                        format!(
                            "{}'s field zone already holds {}; a field is placed only when the zone is empty.",
                            p.name,
                            state.label(&f.card)
                        ),
                        "junk-ken.md §3 S1; seed フィールドゾーン「各プレイヤー1枚まで」",
                    ));
                    if let Some(old) = t.s.players[*player].field.take() {
                        t.s.players[*player].removed.push(old.card);
                    }
                }
                let turn = state.table.turn;
                let p = &mut t.s.players[*player];
                if let Ok(i) = p.extra.binary_search(card) {
                    p.extra.remove(i);
                }
                p.field = Some(Field {
                    card: card.clone(),
                    die: i32::from(field.count),
                    placed_turn: turn,
                });
                // The attribute duel: an advantaged new field destroys the opposing one, unless
                // that one was placed this same turn.
                let opp = other(*player);
                if let (Some(mine), Some(theirs)) =
                    (field.attribute, t.s.players[opp].field.clone())
                {
                    let their_attr = match state.cards.get(&theirs.card).map(|c| &c.data) {
                        Some(JunkKenCard::Field(f)) => f.attribute,
                        _ => None,
                    };
                    if let Some(a) = their_attr
                        && mine.beats(a)
                    {
                        if theirs.placed_turn == turn {
                            t.notes.push(format!(
                                "{} has the advantage over {}, but both were placed this turn: no destruction",
                                info.label(),
                                state.label(&theirs.card)
                            ));
                        } else {
                            t.s.players[opp].field = None;
                            t.notes.push(format!(
                                "{} has the advantage: {}'s {} is destroyed",
                                info.label(),
                                state.name(opp),
                                state.label(&theirs.card)
                            ));
                            if state.rules.field_duel_removes {
                                t.s.players[opp].removed.push(theirs.card);
                            } else {
                                t.bury(opp, theirs.card);
                            }
                        }
                    }
                }
            }
            Move::SpendField { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                let Some(f) = &p.field else {
                    return Err(Impossible::new(format!("{} has no field card", p.name)));
                };
                let spend = match state.cards.get(&f.card).map(|c| &c.data) {
                    Some(JunkKenCard::Field(fd)) => fd.spend,
                    _ => 1,
                };
                if !state.in_set() {
                    v.push(wrong_step(
                        state,
                        "Using a field effect (lowering its die)",
                        "the set phase (S1)",
                    ));
                }
                if spend == 0 {
                    v.push(Violation::new(
                        "junk-ken.field-always-on",
                        format!(
                            "{}'s effect is always on while it is in play; it is not used by lowering the die.",
                            state.label(&f.card)
                        ),
                        "junk-ken.md §6 FieldCard.spend; docs/catalogue-junk-ken.md",
                    ));
                }
                let spend = i32::from(spend.max(1));
                let die = f.die - spend;
                let card = f.card.clone();
                if die < 1 {
                    t.s.players[*player].field = None;
                    t.s.players[*player].removed.push(card.clone());
                    t.notes.push(format!(
                        "the die falls below 1: {} is removed from the game",
                        state.label(&card)
                    ));
                } else if let Some(f) = t.s.players[*player].field.as_mut() {
                    f.die = die;
                }
            }
            Move::Awaken { player, card } => {
                check_seat(*player)?;
                let info = state.card(card)?.clone();
                let JunkKenCard::Awakening(aw) = &info.data else {
                    return Err(Impossible::new(format!(
                        "{} is not an awakening card",
                        info.label()
                    )));
                };
                let p = &state.players[*player];
                if !p.has_extra(card) {
                    return Err(Impossible::new(format!(
                        "{} is not in {}'s extra deck",
                        info.label(),
                        p.name
                    )));
                }
                let Some(ch) = &p.character else {
                    return Err(Impossible::new(format!(
                        "{} has no character to awaken",
                        p.name
                    )));
                };
                let base = state.card(ch.top())?.clone();
                if !state.in_set() {
                    v.push(wrong_step(state, "Awakening", "the set phase (S1)"));
                }
                if !awaken_target_ok(&aw.target, &base) {
                    v.push(Violation::new(
                        "junk-ken.awaken-target",
                        format!(
                            "{} awakens {}; the character in the battle zone is {}.",
                            info.label(),
                            aw.target,
                            base.label()
                        ),
                        "junk-ken.md §5 can_awaken; seed 覚醒「覚醒カードが指定するカードであれば」",
                    ));
                }
                let need = u32::from(state.rules.awaken_turns);
                if ch.turns < need {
                    v.push(Violation::new(
                        "junk-ken.awaken-turns",
                        format!(
                            "A character awakens after {need} turns in a row in the battle zone; {} has been there {} turn(s).",
                            base.label(),
                            ch.turns
                        ),
                        "junk-ken.md §5, §10 #9; seed 覚醒「連続して2ターン以上バトルゾーンに」",
                    ));
                }
                if state.owes_hp(*player) {
                    return Err(Impossible::new("roll the character's HP die first"));
                }
                let p = &mut t.s.players[*player];
                if let Ok(i) = p.extra.binary_search(card) {
                    p.extra.remove(i);
                }
                let new_bullet = info.bullet().map(|(level, _, _)| level);
                let new_clockwise = info.clockwise();
                if let Some(ch) = p.character.as_mut() {
                    ch.stack.push(card.clone());
                    ch.hp_die = aw.hp_die;
                    ch.hp_rolled = false;
                    ch.bullet = new_bullet.map_or(0, |max| ch.bullet.min(max));
                    ch.rotation = match (ch.rotation, new_clockwise) {
                        (Some(r), true) => Some(r),
                        (None, true) => Some(90),
                        (_, false) => None,
                    };
                    ch.dice_active = false;
                }
                t.remove_gear(*player, "its character awakened");
                t.ask(*player, aw.hp_die, DiePurpose::Hp);
            }
            Move::Haste { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                let (card, face_up) = match &p.support {
                    Support::Supporter { card, face_up, .. } => (card.clone(), *face_up),
                    Support::Gear { .. } => {
                        v.push(Violation::new(
                            "junk-ken.haste-gear",
                            "Haste never applies to gear cards.",
                            "junk-ken.md §5 Haste; seed ■ヘイストスキル「ギアカードには適用されず」",
                        ));
                        return Ok(t.done(v));
                    }
                    Support::Empty => {
                        return Err(Impossible::new(format!("{} has no supporter", p.name)));
                    }
                };
                if face_up {
                    return Err(Impossible::new(
                        "the supporter is already face up (Haste does not stack)",
                    ));
                }
                let char_haste = state.top(*player).is_some_and(CardInfo::haste);
                let sup_haste = state.cards.get(&card).is_some_and(CardInfo::haste);
                if !char_haste && !sup_haste {
                    v.push(Violation::new(
                        "junk-ken.haste-icon",
                        format!(
                            "Haste needs the Haste icon on {}'s character or on the supporter itself.",
                            p.name
                        ),
                        "junk-ken.md §5 Haste; seed ■ヘイストスキル",
                    ));
                }
                if !state.in_set() && !state.rules.haste_any_time {
                    v.push(wrong_step(state, "Haste", "the set phase (S1) [§10 #19]"));
                }
                if let Support::Supporter { face_up, .. } = &mut t.s.players[*player].support {
                    *face_up = true;
                }
            }
            Move::EndSet { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                if step != Step::Set {
                    return Err(Impossible::new(format!(
                        "the set phase is not open ({})",
                        step_text(state)
                    )));
                }
                if p.set_done {
                    return Err(Impossible::new(format!(
                        "{} already declared the set phase done",
                        p.name
                    )));
                }
                if state.owes_hp(*player) {
                    return Err(Impossible::new(format!("{} still owes the HP die", p.name)));
                }
                if state.rules.must_place && p.character.is_none() && p.hand > 0 {
                    v.push(Violation::new(
                        "junk-ken.must-place",
                        format!(
                            "{}'s battle zone is empty and the hand holds {} card(s): a character must be placed.",
                            p.name, p.hand
                        ),
                        "junk-ken.md §3 S1, §10 #5",
                    ));
                }
                t.s.players[*player].set_done = true;
                t.maybe_janken();
            }
            Move::DeclareReplacement { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                let Some(ch) = &p.character else {
                    return Err(Impossible::new(format!("{} has no character", p.name)));
                };
                if p.replacing {
                    return Err(Impossible::new(format!(
                        "{} already declared replacement",
                        p.name
                    )));
                }
                if step != Step::Janken {
                    v.push(wrong_step(
                        state,
                        "Declaring replacement",
                        "the janken phase, before the throw [§10 #14]",
                    ));
                }
                if ch.stack.len() > 1 {
                    v.push(Violation::new(
                        "junk-ken.awakened-replacement",
                        "An awakened character may not declare replacement.",
                        "junk-ken.md §5 awaken; seed 覚醒「覚醒キャラクターは交代を選択することができません」",
                    ));
                }
                t.s.players[*player].replacing = true;
                t.s.players[*player].declared_replacement = true;
            }
            Move::Janken { hand0, hand1 } => {
                if step != Step::Janken {
                    return Err(Impossible::new(format!(
                        "janken is thrown in the janken phase, not at {}",
                        step_text(state)
                    )));
                }
                t.resolve([*hand0, *hand1]);
            }
            Move::GearEvent { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                let Support::Gear { durability, card } = &p.support else {
                    return Err(Impossible::new(format!("{} has no gear", p.name)));
                };
                if *durability < 1 {
                    return Err(Impossible::new(format!(
                        "{}'s durability is already below 1; it leaves at the turn end",
                        state.label(card)
                    )));
                }
                if let Support::Gear { durability, .. } = &mut t.s.players[*player].support {
                    *durability -= 1;
                    if *durability < 1 {
                        t.notes.push(
                            "durability below 1: the gear is removed at the end of this turn"
                                .to_owned(),
                        );
                    }
                }
            }
            Move::EndJanken => {
                if step != Step::Resolve {
                    return Err(Impossible::new(format!(
                        "the janken phase ends after the throw, not at {}",
                        step_text(state)
                    )));
                }
                t.end_janken();
            }
            Move::Replace { player, card } => {
                check_seat(*player)?;
                let info = state.card(card)?.clone();
                let p = &state.players[*player];
                if step != Step::Replace || !p.replacing || p.character.is_none() {
                    return Err(Impossible::new(format!(
                        "{} has no replacement to carry out now",
                        p.name
                    )));
                }
                if !matches!(info.data, JunkKenCard::Character(_)) {
                    return Err(Impossible::new(format!(
                        "{} is not a character card",
                        info.label()
                    )));
                }
                if !p.holds(card) || p.hand < 1 {
                    return Err(Impossible::new(format!(
                        "{} has no {} in hand",
                        p.name,
                        info.label()
                    )));
                }
                let rules = state.rules.clone();
                let Some(old) = t.s.players[*player].character.take() else {
                    return Err(Impossible::new("no character"));
                };
                t.remove_gear(*player, "its character left the battle zone");
                let old_clockwise = state.top(*player).is_some_and(CardInfo::clockwise);
                for c in &old.stack {
                    if t.is_extra(c) {
                        t.s.players[*player].removed.push(c.clone());
                    } else if rules.replaced_to_hand {
                        let p = &mut t.s.players[*player];
                        p.put_unplayed(c.clone());
                        p.hand += 1;
                    } else {
                        t.bury(*player, c.clone());
                    }
                }
                let new_bullet = info.bullet().map(|(l, _, _)| l);
                let p = &mut t.s.players[*player];
                p.take_unplayed(card);
                p.hand -= 1;
                p.replacing = false;
                p.character = Some(Character {
                    stack: vec![card.clone()],
                    hp: old.hp,
                    hp_die: info.data.hp_die().unwrap_or(6),
                    hp_rolled: old.hp_rolled,
                    turns: 0,
                    rotation: match (old_clockwise, info.clockwise()) {
                        (true, true) => old.rotation,
                        (_, true) => Some(90),
                        _ => None,
                    },
                    bullet: match new_bullet {
                        Some(max) if rules.bullet_on_replacement => old.bullet.min(max),
                        _ => 0,
                    },
                    dice_active: false,
                });
                if !t
                    .s
                    .players
                    .iter()
                    .any(|p| p.replacing && p.character.is_some())
                {
                    t.begin_turn_end();
                }
            }
            Move::KeepCharacter { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                if step != Step::Replace || !p.replacing {
                    return Err(Impossible::new(format!(
                        "{} has no replacement to carry out now",
                        p.name
                    )));
                }
                t.s.players[*player].replacing = false;
                if !t
                    .s
                    .players
                    .iter()
                    .any(|p| p.replacing && p.character.is_some())
                {
                    t.begin_turn_end();
                }
            }
            Move::SpendBullet { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                let Some((top, ch)) = state.top(*player).zip(p.character.as_ref()) else {
                    return Err(Impossible::new(format!("{} has no character", p.name)));
                };
                let Some((_, _, cost)) = top.bullet() else {
                    return Err(Impossible::new(format!(
                        "{} has no Bullet skill",
                        top.label()
                    )));
                };
                if step != Step::TurnEnd && !state.rules.bullet_any_time {
                    v.push(wrong_step(
                        state,
                        "Spending Bullet counters",
                        "the turn end, after the counter is gained [§10 #12]",
                    ));
                }
                if ch.bullet < cost {
                    v.push(Violation::new(
                        "junk-ken.bullet-counters",
                        format!(
                            "{}'s effect costs {cost} counter(s); it holds {}.",
                            top.label(),
                            ch.bullet
                        ),
                        "junk-ken.md §5 Bullet; seed ■バレットスキル「指定個数のカウンターを取り除く」",
                    ));
                }
                if let Some(ch) = t.s.players[*player].character.as_mut() {
                    ch.bullet = ch.bullet.saturating_sub(cost);
                }
            }
            Move::Necromancy {
                player,
                graveyard,
                card,
            } => {
                check_seat(*player)?;
                check_seat(*graveyard)?;
                let p = &state.players[*player];
                let has_icon = state.top(*player).and_then(CardInfo::necromancy).is_some();
                if !has_icon {
                    return Err(Impossible::new(format!(
                        "{}'s character has no Necromancy skill",
                        p.name
                    )));
                }
                if state.table.dice.iter().any(|d| {
                    matches!(d.purpose, DiePurpose::Necromancy { .. }) && d.seat == *player
                }) {
                    return Err(Impossible::new(
                        "the Necromancy pick is waiting for its die",
                    ));
                }
                if !p.necromancy_ready || step != Step::TurnEnd {
                    v.push(Violation::new(
                        "junk-ken.necromancy-trigger",
                        format!(
                            "Necromancy works once at the end of a turn in which {}'s character threw its marked hand, was not replacing and survived.",
                            p.name
                        ),
                        "junk-ken.md §5 Necromancy; seed ■ネクロマンシースキル, FAQ",
                    ));
                }
                let g = &state.players[*graveyard].graveyard;
                match card {
                    Some(id) => {
                        let Some(i) = g.iter().position(|c| &c.card == id && !c.face_down) else {
                            return Err(Impossible::new(format!(
                                "{}'s graveyard holds no face-up {}",
                                state.name(*graveyard),
                                state.label(id)
                            )));
                        };
                        t.s.players[*graveyard].graveyard[i].face_down = true;
                    }
                    None => {
                        let down: Vec<usize> = g
                            .iter()
                            .enumerate()
                            .filter(|(_, c)| c.face_down)
                            .map(|(i, _)| i)
                            .collect();
                        match down.len() {
                            0 => {
                                return Err(Impossible::new(format!(
                                    "{}'s graveyard holds no face-down card",
                                    state.name(*graveyard)
                                )));
                            }
                            1 => t.s.players[*graveyard].graveyard[down[0]].face_down = false,
                            n => t.ask(
                                *player,
                                u8::try_from(n).unwrap_or(u8::MAX),
                                DiePurpose::Necromancy {
                                    graveyard: *graveyard,
                                },
                            ),
                        }
                    }
                }
                t.s.players[*player].necromancy_ready = false;
            }
            Move::EndTurn => {
                if step != Step::TurnEnd {
                    return Err(Impossible::new(format!(
                        "the turn ends after the janken phase, not at {}",
                        step_text(state)
                    )));
                }
                if state
                    .table
                    .dice
                    .iter()
                    .any(|d| matches!(d.purpose, DiePurpose::Necromancy { .. }))
                {
                    return Err(Impossible::new(
                        "the Necromancy pick is waiting for its die",
                    ));
                }
                t.end_turn();
            }
            Move::Effect {
                player,
                damage,
                self_damage,
                heal,
                draw,
                ..
            } => {
                check_seat(*player)?;
                if let Some(x) = [*damage, *self_damage, *heal, *draw]
                    .iter()
                    .find(|x| x.unsigned_abs() > MAX_CHANGE.unsigned_abs())
                {
                    return Err(Impossible::new(format!(
                        "a change of {x} is outside ±{MAX_CHANGE}"
                    )));
                }
                let p = &state.players[*player];
                if p.replacing && matches!(step, Step::Janken | Step::Resolve) {
                    v.push(Violation::new(
                        "junk-ken.replacement-suppresses",
                        format!(
                            "{} declared replacement: in this janken phase their effects cannot be used and they cannot damage the opponent.",
                            p.name
                        ),
                        "junk-ken.md §5 replacement; seed 交代「自分の効果を発動することや、相手にダメージを与えることはできません」",
                    ));
                }
                let mut dmg = [0; 2];
                dmg[other(*player)] = *damage;
                dmg[*player] = *self_damage;
                let mut h = [0; 2];
                h[*player] = *heal;
                t.settle(dmg, h);
                if *draw > 0 && t.s.table.step != Step::Over {
                    t.draw(*player, *draw);
                }
            }
            Move::Surrender { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                if !state.rules.draft || p.side > 0 || p.deck > 0 || p.hand > 1 {
                    v.push(Violation::new(
                        "junk-ken.surrender",
                        format!(
                            "Surrender is a draft-variant option for a player who took the last side card with no deck and hand left ({}: side {}, deck {}, hand {}).",
                            p.name, p.side, p.deck, p.hand
                        ),
                        "junk-ken.md §7, §8; seed ドラフト「サレンダー(降参)を選択できる」",
                    ));
                }
                t.s.players[*player].surrendered = true;
                t.check_over();
            }
        }
        Ok(t.done(v))
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::Player(seat, p) => {
                if let Some(slot) = state.players.get_mut(*seat) {
                    slot.clone_from(p);
                }
            }
            Event::Table(t) => state.table.clone_from(t),
        }
    }

    fn context(state: &State) -> MatchCtx {
        let phases = vec![
            "Set セット".to_owned(),
            "Janken じゃんけん".to_owned(),
            "Janken end".to_owned(),
            "Turn end".to_owned(),
        ];
        let current = match state.table.step {
            Step::SetStart | Step::Set => 0,
            Step::Janken | Step::Resolve => 1,
            Step::Replace => 2,
            Step::TurnEnd | Step::Over => 3,
        };
        let next = match state.table.step {
            Step::SetStart => "the set phase: place cards".to_owned(),
            Step::Set => "the janken phase, once both are done".to_owned(),
            Step::Janken => "the throw resolves the winner's action".to_owned(),
            Step::Resolve => "the janken phase ends: field dice −1, supporters age".to_owned(),
            Step::Replace => "the turn end: Bullet and Necromancy".to_owned(),
            Step::TurnEnd => format!("turn {}: the set phase begins", state.table.turn + 1),
            Step::Over => "—".to_owned(),
        };
        let active = match state.table.step {
            Step::Set => {
                let waiting: Vec<Seat> = (0..2).filter(|&s| !state.players[s].set_done).collect();
                (waiting.len() == 1).then(|| waiting[0])
            }
            Step::Replace => (0..2).find(|&s| state.players[s].replacing),
            _ => None,
        };
        MatchCtx {
            players: state.players.iter().map(|p| p.name.clone()).collect(),
            turn: state.table.turn,
            phase: PhaseView {
                phases,
                current,
                step: step_text(state),
                next,
            },
            active,
            leader: None,
            prompts: prompts(state),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        if let Some(s) = (0..2).find(|&s| state.players[s].surrendered) {
            return Some(Outcome::Win {
                winner: other(s),
                reason: format!("{} surrendered", state.players[s].name),
            });
        }
        let threshold = state.rules.loss_threshold();
        let lost: Vec<Seat> = (0..2)
            .filter(|&s| state.players[s].defeated >= threshold)
            .collect();
        match lost.as_slice() {
            [s] => Some(Outcome::Win {
                winner: other(*s),
                reason: format!("{} lost {threshold} characters", state.players[*s].name),
            }),
            [_, _] => Some(Outcome::Draw {
                reason: format!("both players lost {threshold} characters at once"),
            }),
            _ => None,
        }
    }

    fn trackers(state: &State) -> Vec<Tracker> {
        let mut out = vec![Tracker {
            id: TrackerId::game("turn"),
            label: "Turn".into(),
            value: i32::try_from(state.table.turn).unwrap_or(i32::MAX),
            min: 1,
            max: 9999,
        }];
        let main = i32::try_from(state.rules.deck_rules().main_size).unwrap_or(30);
        let threshold = i32::from(state.rules.loss_threshold());
        for (seat, p) in state.players.iter().enumerate() {
            let mut push = |name: &'static str, label: &'static str, value: i32, min, max| {
                out.push(Tracker {
                    id: TrackerId::player(seat, name),
                    label: label.into(),
                    value,
                    min,
                    max,
                })
            };
            push("hand", "Hand 手札", p.hand, 0, main);
            push("deck", "Deck 山札", p.deck, 0, main);
            push("side", "Side サイド", p.side, 0, 2);
            push(
                "defeated",
                "Defeated characters",
                i32::from(p.defeated),
                0,
                threshold,
            );
            push(
                "atk-bonus",
                "ATK bonus (+1 attack effects)",
                p.atk_bonus,
                -9,
                9,
            );
            if let Some(ch) = &p.character {
                push("hp", "HP 体力", ch.hp, 1, MAX_HP);
                push(
                    "turns-in-zone",
                    "Turns in the battle zone",
                    i32::try_from(ch.turns).unwrap_or(0),
                    0,
                    999,
                );
                let top = state.cards.get(ch.top());
                if let Some((level, _, _)) = top.and_then(CardInfo::bullet) {
                    push(
                        "bullet",
                        "Bullet counters",
                        i32::from(ch.bullet),
                        0,
                        i32::from(level),
                    );
                }
                if let Some(r) = ch.rotation {
                    push("rotation", "Clockwise rotation (°)", i32::from(r), 0, 270);
                }
                if top.and_then(CardInfo::dice_roll).is_some() {
                    push(
                        "dice-skill",
                        "Dice-rolling skill on (1) / off (0)",
                        i32::from(ch.dice_active),
                        0,
                        1,
                    );
                }
            }
            match &p.support {
                Support::Supporter { age, .. } => push(
                    "supporter-age",
                    "Supporter: janken phases ended",
                    i32::from(*age),
                    0,
                    1,
                ),
                Support::Gear { card, durability } => {
                    let max = match state.cards.get(card).map(|c| &c.data) {
                        Some(JunkKenCard::Gear(g)) => i32::from(g.durability),
                        _ => 9,
                    };
                    push("gear", "Gear durability die", *durability, 0, max)
                }
                Support::Empty => {}
            }
            if let Some(f) = &p.field {
                let max = match state.cards.get(&f.card).map(|c| &c.data) {
                    Some(JunkKenCard::Field(fd)) => i32::from(fd.count),
                    _ => 9,
                };
                push("field", "Field countdown die", f.die, 0, max);
            }
        }
        out
    }

    fn adjust(state: &State, tracker: &TrackerId, value: i32) -> Result<Vec<Event>, Impossible> {
        let mut t = Scratch::new(state);
        if tracker.name == "turn" {
            t.s.table.turn =
                u32::try_from(value).map_err(|_| Impossible::new("the turn is positive"))?;
            return Ok(t.done(Vec::new()).events);
        }
        let seat = tracker
            .player
            .filter(|s| *s < 2)
            .ok_or_else(|| Impossible::new(format!("`{tracker}` needs a player")))?;
        let small =
            |v: i32| u8::try_from(v).map_err(|_| Impossible::new(format!("{v} is out of range")));
        let p = &mut t.s.players[seat];
        let missing = || {
            Impossible::new(format!(
                "{} has no `{}` now",
                state.name(seat),
                tracker.name
            ))
        };
        match tracker.name.as_ref() {
            "hand" => p.hand = value,
            "deck" => p.deck = value,
            "side" => p.side = value,
            "defeated" => {
                p.defeated = small(value)?;
                t.check_over();
            }
            "atk-bonus" => p.atk_bonus = value,
            "hp" => p.character.as_mut().ok_or_else(missing)?.hp = value,
            "turns-in-zone" => {
                p.character.as_mut().ok_or_else(missing)?.turns =
                    u32::try_from(value).map_err(|_| missing())?
            }
            "bullet" => p.character.as_mut().ok_or_else(missing)?.bullet = small(value)?,
            "rotation" => {
                if value % 90 != 0 {
                    return Err(Impossible::new("a Clockwise card turns in steps of 90°"));
                }
                p.character.as_mut().ok_or_else(missing)?.rotation =
                    Some(u16::try_from(value).map_err(|_| missing())?)
            }
            "dice-skill" => p.character.as_mut().ok_or_else(missing)?.dice_active = value == 1,
            "supporter-age" => match &mut p.support {
                Support::Supporter { age, .. } => *age = small(value)?,
                _ => return Err(missing()),
            },
            "gear" => match &mut p.support {
                Support::Gear { durability, .. } => *durability = value,
                _ => return Err(missing()),
            },
            "field" => {
                let f = p.field.as_mut().ok_or_else(missing)?;
                f.die = value;
                if value < 1 {
                    let card = f.card.clone();
                    p.field = None;
                    p.removed.push(card);
                }
            }
            other => {
                return Err(Impossible::new(format!(
                    "JUNK-KEN keeps no number called `{other}`"
                )));
            }
        }
        Ok(t.done(Vec::new()).events)
    }

    fn die_prompts(state: &State) -> Vec<Prompt> {
        state
            .table
            .dice
            .iter()
            .map(|d| die_prompt(state, d))
            .collect()
    }

    fn fulfil(state: &State, prompt: &Prompt, roll: &Roll) -> Result<Vec<Event>, Impossible> {
        let Some(ask) = state.table.dice.iter().find(|d| d.id == prompt.id) else {
            return Err(Impossible::new(format!("no open die prompt {}", prompt.id)));
        };
        if roll.sides != ask.sides || roll.value == 0 || roll.value > roll.sides {
            return Err(Impossible::new(format!(
                "prompt {} needs a d{}, not d{} = {}",
                ask.id, ask.sides, roll.sides, roll.value
            )));
        }
        let mut t = Scratch::new(state);
        let seat = ask.seat;
        let value = roll.value;
        let id = ask.id.clone();
        t.s.table.dice.retain(|d| d.id != id);
        match &ask.purpose {
            DiePurpose::Hp => {
                if let Some(ch) = t.s.players[seat].character.as_mut() {
                    ch.hp = i32::from(value);
                    ch.hp_rolled = true;
                }
            }
            DiePurpose::DiceSkill { total, left } => {
                let total = total + u32::from(value);
                let left = left.saturating_sub(1);
                if left > 0 {
                    let mut next = ask.clone();
                    next.purpose = DiePurpose::DiceSkill { total, left };
                    t.s.table.dice.insert(0, next);
                } else {
                    let holds = state
                        .top(seat)
                        .and_then(CardInfo::dice_roll)
                        .is_some_and(|(r, _)| r.holds(total));
                    if let Some(ch) = t.s.players[seat].character.as_mut() {
                        ch.dice_active = holds;
                    }
                    t.leave_set_start();
                }
            }
            DiePurpose::Necromancy { graveyard } => {
                let g = &mut t.s.players[*graveyard].graveyard;
                if let Some(c) = g
                    .iter_mut()
                    .filter(|c| c.face_down)
                    .nth(usize::from(value) - 1)
                {
                    c.face_down = false;
                }
            }
        }
        Ok(t.done(Vec::new()).events)
    }

    fn candidate_moves(state: &State) -> Vec<Move> {
        let mut out = Vec::new();
        let distinct = |ids: &[String]| {
            let mut v = ids.to_vec();
            v.dedup();
            v
        };
        let kind = |id: &str| state.cards.get(id).map(|c| c.data.kind_name());
        for d in &state.table.dice {
            if matches!(d.purpose, DiePurpose::DiceSkill { .. }) {
                out.push(Move::SkipDiceRoll { player: d.seat });
            }
        }
        match state.table.step {
            Step::SetStart | Step::Over => {}
            Step::Set => {
                for player in 0..2 {
                    let p = &state.players[player];
                    if p.set_done {
                        continue;
                    }
                    for card in distinct(&p.unplayed) {
                        if p.character.is_none() && kind(&card) == Some("character") {
                            out.push(Move::PlaceCharacter {
                                player,
                                card: card.clone(),
                            });
                        }
                        if p.support == Support::Empty {
                            if kind(&card) == Some("gear") {
                                out.push(Move::PlaceGear { player, card });
                            } else {
                                out.push(Move::PlaceSupporter { player, card });
                            }
                        }
                    }
                    for card in distinct(&p.extra) {
                        match kind(&card) {
                            Some("field") if p.field.is_none() => {
                                out.push(Move::PlaceField { player, card })
                            }
                            Some("awakening") if p.character.is_some() => {
                                out.push(Move::Awaken { player, card })
                            }
                            _ => {}
                        }
                    }
                    if p.field.is_some() {
                        out.push(Move::SpendField { player });
                    }
                    if matches!(p.support, Support::Supporter { face_up: false, .. }) {
                        out.push(Move::Haste { player });
                    }
                    out.push(Move::EndSet { player });
                }
            }
            Step::Janken => {
                for player in 0..2 {
                    if !state.players[player].replacing {
                        out.push(Move::DeclareReplacement { player });
                    }
                }
                for hand0 in Hand::ALL {
                    for hand1 in Hand::ALL {
                        out.push(Move::Janken { hand0, hand1 });
                    }
                }
            }
            Step::Resolve => {
                out.push(Move::EndJanken);
                for player in 0..2 {
                    if matches!(state.players[player].support, Support::Gear { durability, .. } if durability >= 1)
                    {
                        out.push(Move::GearEvent { player });
                    }
                }
            }
            Step::Replace => {
                for player in 0..2 {
                    let p = &state.players[player];
                    if p.replacing && p.character.is_some() {
                        out.push(Move::KeepCharacter { player });
                        for card in distinct(&p.unplayed) {
                            if kind(&card) == Some("character") {
                                out.push(Move::Replace { player, card });
                            }
                        }
                    }
                }
            }
            Step::TurnEnd => {
                if !state
                    .table
                    .dice
                    .iter()
                    .any(|d| matches!(d.purpose, DiePurpose::Necromancy { .. }))
                {
                    out.push(Move::EndTurn);
                }
                for player in 0..2 {
                    let p = &state.players[player];
                    if p.character.is_some() {
                        out.push(Move::SpendBullet { player });
                    }
                    if p.necromancy_ready {
                        for graveyard in 0..2 {
                            let g = &state.players[graveyard].graveyard;
                            if g.iter().any(|c| c.face_down) {
                                out.push(Move::Necromancy {
                                    player,
                                    graveyard,
                                    card: None,
                                });
                            }
                            if let Some(c) = g.iter().find(|c| !c.face_down) {
                                out.push(Move::Necromancy {
                                    player,
                                    graveyard,
                                    card: Some(c.card.clone()),
                                });
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn describe(state: &State, mv: &Move) -> String {
        let name = |s: &Seat| state.name(*s).to_owned();
        let card = |id: &str| state.label(id);
        match mv {
            Move::SkipDiceRoll { player } => format!(
                "{}: no suitable die, the Dice-rolling skill does not fire this turn",
                name(player)
            ),
            Move::PlaceCharacter { player, card: c } => {
                format!("{} places {} in the battle zone", name(player), card(c))
            }
            Move::PlaceSupporter { player, .. } => {
                format!("{} places a supporter face down", name(player))
            }
            Move::PlaceGear { player, card: c } => {
                format!("{} places the gear {}", name(player), card(c))
            }
            Move::PlaceField { player, card: c } => {
                format!("{} places the field {}", name(player), card(c))
            }
            Move::SpendField { player } => {
                format!("{} lowers the field die to use its effect", name(player))
            }
            Move::Awaken { player, card: c } => {
                format!("{} awakens the character into {}", name(player), card(c))
            }
            Move::Haste { player } => {
                format!(
                    "{} uses Haste: the supporter turns face up (+1)",
                    name(player)
                )
            }
            Move::EndSet { player } => format!("{} is done setting", name(player)),
            Move::DeclareReplacement { player } => {
                format!("{} declares replacement (交代)", name(player))
            }
            Move::Janken { hand0, hand1 } => format!(
                "janken: {} {} — {} {}",
                name(&0),
                hand0.label(),
                name(&1),
                hand1.label()
            ),
            Move::GearEvent { player } => {
                format!("{}'s gear: a durability event (−1)", name(player))
            }
            Move::EndJanken => "the janken phase ends".to_owned(),
            Move::Replace { player, card: c } => {
                format!("{} swaps the character for {}", name(player), card(c))
            }
            Move::KeepCharacter { player } => {
                format!("{} keeps the character (no swap)", name(player))
            }
            Move::SpendBullet { player } => {
                let text = state
                    .top(*player)
                    .map(|c| c.text.clone())
                    .unwrap_or_default();
                format!("{} removes Bullet counters: {text}", name(player))
            }
            Move::Necromancy {
                player,
                graveyard,
                card: c,
            } => match c {
                Some(c) => format!(
                    "{}'s Necromancy turns {} in {}'s graveyard face down",
                    name(player),
                    card(c),
                    name(graveyard)
                ),
                None => format!(
                    "{}'s Necromancy turns a random face-down card of {}'s graveyard face up",
                    name(player),
                    name(graveyard)
                ),
            },
            Move::EndTurn => format!("turn {} ends", state.table.turn),
            Move::Effect {
                player,
                damage,
                self_damage,
                heal,
                draw,
                note,
            } => {
                let mut parts = Vec::new();
                for (label, v) in [
                    ("damage to the opponent", damage),
                    ("damage to own character", self_damage),
                    ("HP back", heal),
                    ("draw", draw),
                ] {
                    if *v != 0 {
                        parts.push(format!("{label} {v}"));
                    }
                }
                format!(
                    "{}'s effect: {}",
                    name(player),
                    crate::core::effect_summary(&parts, note)
                )
            }
            Move::Surrender { player } => format!("{} surrenders", name(player)),
        }
    }
}

fn die_prompt(state: &State, d: &DieAsk) -> Prompt {
    let who = state.name(d.seat);
    let text = match &d.purpose {
        DiePurpose::Hp => {
            let c = state.top(d.seat).map(CardInfo::label).unwrap_or_default();
            format!("{who}: roll the HP die (d{}) of {c}", d.sides)
        }
        DiePurpose::DiceSkill { left, .. } => {
            let skill = state
                .top(d.seat)
                .and_then(|c| c.dice_roll().map(|(r, e)| format!("{r}⇒ {e}")))
                .unwrap_or_default();
            format!(
                "{who}: Dice-rolling skill {skill} — roll a d{} ({left} left)",
                d.sides
            )
        }
        DiePurpose::Necromancy { graveyard } => format!(
            "{who}: Necromancy — a d{} picks which face-down card of {}'s graveyard turns face up",
            d.sides,
            state.name(*graveyard)
        ),
    };
    Prompt {
        id: d.id.clone(),
        player: Some(d.seat),
        kind: PromptKind::Die { sides: d.sides },
        text,
    }
}

fn prompts(state: &State) -> Vec<Prompt> {
    let mut out: Vec<Prompt> = JunkKen::die_prompts(state);
    let t = state.table.turn;
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    match state.table.step {
        Step::Set => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.set_done {
                    continue;
                }
                let what = if p.character.is_none() && p.hand > 0 {
                    "place a character (required), then any support, field, awakening or Haste; then done"
                } else {
                    "place support / field cards, awaken or use Haste if you wish; then done"
                };
                out.push(choice(
                    format!("t{t}-set-{seat}"),
                    Some(seat),
                    format!("{}: {what}", p.name),
                ));
                if p.character.as_ref().is_some_and(|c| c.rotation == Some(0)) {
                    out.push(choice(
                        format!("t{t}-clockwise-{seat}"),
                        Some(seat),
                        format!(
                            "{}: the Clockwise character is upright: its effect may be used",
                            p.name
                        ),
                    ));
                }
                if p.character.as_ref().is_some_and(|c| c.dice_active) {
                    let e = state
                        .top(seat)
                        .and_then(|c| c.dice_roll().map(|(_, e)| e.to_owned()))
                        .unwrap_or_default();
                    out.push(choice(
                        format!("t{t}-dice-on-{seat}"),
                        Some(seat),
                        format!(
                            "{}: the Dice-rolling skill is on until the next set phase: {e}",
                            p.name
                        ),
                    ));
                }
            }
        }
        Step::Janken => out.push(choice(
            format!("t{t}-janken"),
            None,
            "Declare replacement if you wish, then throw janken and enter both hands".into(),
        )),
        Step::Resolve => out.push(choice(
            format!("t{t}-resolve"),
            None,
            "Enter the results of skills resolved by hand, then end the janken phase".into(),
        )),
        Step::Replace => {
            for seat in 0..2 {
                if state.players[seat].replacing {
                    out.push(choice(
                        format!("t{t}-replace-{seat}"),
                        Some(seat),
                        format!(
                            "{}: swap the character with a hand card (the HP carries over)",
                            state.name(seat)
                        ),
                    ));
                }
            }
        }
        Step::TurnEnd => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.necromancy_ready {
                    out.push(choice(
                        format!("t{t}-necromancy-{seat}"),
                        Some(seat),
                        format!("{}: Necromancy may turn 1 graveyard card over", p.name),
                    ));
                }
            }
            out.push(choice(
                format!("t{t}-end"),
                None,
                "Spend Bullet counters if you wish, then end the turn".into(),
            ));
        }
        Step::SetStart | Step::Over => {}
    }
    out
}
