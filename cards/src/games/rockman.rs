//! ロックマンエグゼカードゲーム (the Rockman EXE card game): a 2-player grid battle for HP.
//!
//! Follows `rules/rockman-exe.md` and its seed `001_8d4fd42f2dd1e88a.txt` (the seed wins where they
//! disagree). Setup: each player puts an opening navi from the deck on the centre square of their
//! area; janken decides the first turn. Each turn runs ORDER (lower HP first, then fewer cards in
//! area + chip zone, then janken) → DRAW (up to 5; an empty deck costs 30 HP and the discard pile
//! becomes the deck) → TRANSFER (first, then second player: ≤ 1 character, ≤ 1 face-down chip,
//! Lv3: ≤ 1 style) → BATTLE (alternating single actions: move, attack, chip, battler, pass; two
//! passes in a row end it) → END (end-phase effects, every character unacted with its damage
//! cleared, one discard-and-refill exchange). A player whose HP gauge reaches 0 loses.
//!
//! Coordinates: each player's area is seen from its owner's seat. A square is `col,row` with
//! `col` 0 at the owner's left and `row` 0 the **front** rank (touching the border with the
//! opponent's area); "up" is towards the opponent. Because the players face each other, column
//! `c` of one area faces column `cols − 1 − c` of the other (a lane runs straight across).
//!
//! The app cannot see hands: it tracks each player's *unplayed* cards (deck, hand and the
//! face-down chips together) with the hand, deck and chip-zone counts, as the Jaken engine does. A
//! card played must be one of the unplayed cards. Printed attack power and target patterns are
//! applied by the app; every other effect is resolved by the players and entered with the
//! `effect` move, which logs what it changed. The game uses no dice.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::core::GameId;
//! use cards::games::rockman::{demo_header, Move, Rockman, Square};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::builtin(GameId::RockmanExe).unwrap();
//! let mut m = Match::<Rockman>::new(demo_header(&cat, ["Aki", "Ben"], ["aozora", "kagaribi"]).unwrap(), &cat).unwrap();
//! for mv in [
//!     Move::OpeningNavi { player: 0, card: "RX01".into() },
//!     Move::OpeningNavi { player: 1, card: "RX02".into() },
//!     Move::Janken { winner: 0 },
//! ] {
//!     let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//!     m.commit(p);
//! }
//! let s = m.state();
//! assert_eq!((s.players[0].hand, s.players[0].deck), (5, 24)); // 30 − navi − 5 drawn
//! assert!(s.at(0, Square::new(1, 1)).is_some()); // the navi on the centre square
//! ```

use crate::catalogue::rockman::{RockmanCard, Target, max_level};
use crate::catalogue::{CardData, Catalogue};
use crate::core::{
    Decision, GameId, Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat,
    Tracker, TrackerId, Violation,
};
use crate::decks::{CopyRef, Deck};
use crate::game::{Game, MatchHeader, PlayerConfig, SetupError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The HP gauge each player starts with (digest §2, review R1).
pub const START_HP: i32 = crate::catalogue::rockman::START_HP;
/// Cards in a deck, the opening navi included.
pub const DECK_SIZE: usize = crate::catalogue::rockman::DECK_SIZE;
/// The hand is refilled to this many cards (seed: 手札が５枚になるように).
pub const HAND_SIZE: i32 = 5;
/// HP lost when a draw finds the deck empty (seed: ＨＰを30へらし).
pub const DECK_OUT_PENALTY: i32 = 30;
/// Largest change one manual effect may enter for a number.
pub const MAX_CHANGE: i32 = 990;
/// Largest area side a house rule may set.
pub const MAX_SIDE: u8 = 5;
/// The attack bonuses offered on the attack buttons (a style card's or an effect's +10, +20 …,
/// entered by hand); a script may give any bonus.
pub const ATTACK_BONUSES: [i32; 6] = [0, 10, 20, 30, 40, 50];

const REF_SEED: &str = "seed ロックマンエグゼカードゲーム / ルール";

/// The marker type of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rockman;

/// How the battle phase ends (digest §10 gap 8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BattleEnd {
    /// Two passes in a row end the phase; a player who passed may act again later (default).
    #[default]
    TwoPasses,
    /// A pass is final: the passing player takes no more actions this phase; the phase ends once
    /// both have passed.
    PassIsFinal,
}

/// House rules: the optional rules Lv1–Lv3 and the gaps of `rules/rockman-exe.md` §10 that
/// players could settle differently. Missing keys take the digest's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Lv1 (seed): the chips a player may use depend on their own HP gauge.
    pub lv1_chip_limit: bool,
    /// Lv2 (seed): the viruses a player may transfer depend on their own HP gauge.
    pub lv2_virus_limit: bool,
    /// Lv2 (seed): a virus on the area may evolve into the virus its card names.
    pub lv2_evolution: bool,
    /// Lv3 (seed): one style card per transfer phase may be attached to a navi.
    pub lv3_styles: bool,
    /// §10 gap 1: columns (lanes) of each area.
    pub area_cols: u8,
    /// §10 gap 1: rows (ranks) of each area.
    pub area_rows: u8,
    /// §10 gap 2: cards in hand before the first draw phase.
    pub starting_hand: u8,
    /// §10 gap 5: an attack equal to the defence goes through (the seed's 以上; R1 says it must
    /// exceed the defence).
    pub equal_attack_passes: bool,
    /// §10 gap 7: a battler stays in play until the next one replaces it (R1) instead of being
    /// discarded at once (seed).
    pub battler_stays_in_play: bool,
    /// §10 gap 8: how the battle phase ends.
    pub battle_end: BattleEnd,
    /// §10 gap 9: most face-down chips in a chip zone (`None`: no cap).
    pub chip_zone_cap: Option<u8>,
    /// §10 gap 9: a chip may be used in the turn it was placed.
    pub chip_same_turn: bool,
    /// §10 gap 10: a card moves only onto an empty square (otherwise the two cards swap).
    pub move_needs_empty_square: bool,
    /// §10 gap 11: the deck-out penalty applies to every draw, not only the draw phase.
    pub deck_out_any_draw: bool,
    /// §10 gap 13: the highest HP gauge (`None`: no cap).
    pub hp_cap: Option<i32>,
    /// §10 gap 14: an evolution uses the turn's one character placement.
    pub evolution_uses_character: bool,
    /// §10 gap 14: attaching a style uses the turn's one character placement.
    pub style_uses_character: bool,
    /// ORDER (2): attached style cards count among the cards of the area.
    pub order_counts_styles: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            lv1_chip_limit: false,
            lv2_virus_limit: false,
            lv2_evolution: false,
            lv3_styles: false,
            area_cols: 3,
            area_rows: 3,
            starting_hand: 0,
            equal_attack_passes: true,
            battler_stays_in_play: false,
            battle_end: BattleEnd::TwoPasses,
            chip_zone_cap: None,
            chip_same_turn: true,
            move_needs_empty_square: true,
            deck_out_any_draw: true,
            hp_cap: None,
            evolution_uses_character: true,
            style_uses_character: false,
            order_counts_styles: false,
        }
    }
}

/// A square of one player's area, seen from its owner's seat: `col` from the left, `row` 0 the
/// front rank. Written `"col,row"` (e.g. `"1,0"`). Coordinates outside the area are kept so that a
/// move off the edge can be explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    /// Column (lane), 0 at the owner's left.
    pub col: i8,
    /// Row (rank), 0 at the front.
    pub row: i8,
}

impl Square {
    /// The square at (col, row).
    pub fn new(col: i8, row: i8) -> Self {
        Square { col, row }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.col, self.row)
    }
}

impl std::str::FromStr for Square {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim().trim_start_matches('(').trim_end_matches(')');
        let (c, r) = t
            .split_once(',')
            .ok_or_else(|| format!("`{s}` is not a square (write col,row, e.g. 1,0)"))?;
        let col = c.trim().parse().map_err(|_| format!("`{s}`: bad column"))?;
        let row = r.trim().parse().map_err(|_| format!("`{s}`: bad row"))?;
        Ok(Square { col, row })
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{},{}", self.col, self.row))
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A list written as one string (`"0,0 1,0"` for squares, `"RX01,RX02"` for cards) or as a
/// JSON array.
#[derive(Deserialize)]
#[serde(untagged)]
enum ListForm<T> {
    Text(String),
    Items(Vec<T>),
}

/// Target squares of an attack: `"1,0"` or `"0,0 2,0"` (space or `;` between squares).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Squares(pub Vec<Square>);

impl Serialize for Squares {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|q| format!("{},{}", q.col, q.row))
            .collect();
        s.serialize_str(&parts.join(" "))
    }
}

impl<'de> Deserialize<'de> for Squares {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match ListForm::<Square>::deserialize(d)? {
            ListForm::Items(v) => Ok(Squares(v)),
            ListForm::Text(t) => t
                .split([' ', ';'])
                .filter(|p| !p.trim().is_empty())
                .map(str::parse)
                .collect::<Result<Vec<Square>, String>>()
                .map(Squares)
                .map_err(serde::de::Error::custom),
        }
    }
}

/// Card ids: `"RX01,RX02"` or a JSON array.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardList(pub Vec<String>);

impl Serialize for CardList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.join(","))
    }
}

impl<'de> Deserialize<'de> for CardList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(CardList(match ListForm::<String>::deserialize(d)? {
            ListForm::Items(v) => v,
            ListForm::Text(t) => t
                .split([',', ' '])
                .filter(|p| !p.trim().is_empty())
                .map(|p| p.trim().to_owned())
                .collect(),
        }))
    }
}

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Setup: each player puts an opening navi on the centre square.
    OpeningNavi,
    /// ORDER: janken decides the first player (turn 1, or a tie on HP and card count).
    Janken,
    /// TRANSFER: the first player places cards.
    TransferFirst,
    /// TRANSFER: the second player places cards.
    TransferSecond,
    /// BATTLE: alternating actions.
    Battle,
    /// END (1): resolve 「エンドフェイズに～」 effects.
    EndEffects,
    /// END (3): each player discards unwanted cards and draws back to 5 (once).
    Exchange,
}

/// A card on a square of an area.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AreaCard {
    /// Card id.
    pub card: String,
    /// 行動済み (turned sideways): it attacked this turn.
    pub acted: bool,
    /// Damage taken this turn (viruses).
    pub damage: u32,
    /// A style card attached (navis, Lv3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
}

/// One player's side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The name at the table.
    pub name: String,
    /// ＨＰゲージ.
    pub hp: i32,
    /// Cards in hand.
    pub hand: i32,
    /// Cards in the deck.
    pub deck: i32,
    /// Face-down chips in the chip zone.
    pub chips: i32,
    /// Chips placed this turn (for the same-turn house rule).
    pub chips_placed_this_turn: i32,
    /// Card ids not yet seen in play (deck, hand and face-down chips together), sorted.
    pub unplayed: Vec<String>,
    /// 捨札, in order.
    pub discard: Vec<String>,
    /// The area, row by row from the front rank (`rows × cols` squares).
    pub area: Vec<Option<AreaCard>>,
    /// A battler in play (only with `battler_stays_in_play`).
    pub battler: Option<String>,
    /// This transfer phase: a character was placed (or a virus evolved).
    pub placed_character: bool,
    /// This transfer phase: a chip was placed.
    pub placed_chip: bool,
    /// This transfer phase: a style was attached.
    pub attached_style: bool,
    /// This battle phase: the player passed (pass-is-final house rule).
    pub passed_out: bool,
    /// This end phase: the player made the exchange.
    pub exchanged: bool,
}

impl PlayerState {
    /// Cards in the area and the chip zone (ORDER rule 2).
    pub fn table_cards(&self, count_styles: bool) -> i32 {
        let area: i32 = self
            .area
            .iter()
            .flatten()
            .map(|c| 1 + i32::from(count_styles && c.style.is_some()))
            .sum();
        area + self.chips
    }
}

fn index(sq: Square, cols: u8, len: usize) -> Option<usize> {
    let cols = i64::from(cols);
    if cols == 0 {
        return None;
    }
    let rows = len as i64 / cols;
    let (c, r) = (i64::from(sq.col), i64::from(sq.row));
    (c >= 0 && r >= 0 && c < cols && r < rows)
        .then(|| usize::try_from(r * cols + c).ok())
        .flatten()
}

/// The card data the game needs, copied from the catalogue at setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInfo {
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Rules text.
    pub text: String,
    /// The numbers the rules use.
    pub data: RockmanCard,
}

impl CardInfo {
    fn label(&self) -> String {
        format!("{} ({})", self.name_ja, self.name_en)
    }
}

/// What one hit did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum HitResult {
    /// The attack was below the virus's defence: no damage.
    Blocked {
        /// The defence that stopped it (0 when acted).
        defence: u32,
    },
    /// The virus took the damage and survives.
    Damaged {
        /// Its damage now.
        total: u32,
    },
    /// The virus's damage reached its HP: it went to the discard pile.
    Destroyed {
        /// Its damage.
        total: u32,
    },
    /// A navi was hit: its owner's HP gauge went down.
    Hp {
        /// The HP gauge now.
        now: i32,
    },
}

/// One hit of an attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// The owner of the card hit.
    pub owner: Seat,
    /// Its square.
    pub square: Square,
    /// Its card id.
    pub card: String,
    /// The attack power dealt.
    pub attack: u32,
    /// What happened.
    pub result: HitResult,
}

/// The last attack, for the table screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackReport {
    /// Turn.
    pub turn: u32,
    /// Who attacked.
    pub attacker: Seat,
    /// The attacking card or chip.
    pub card: String,
    /// Each hit.
    pub hits: Vec<Hit>,
}

/// The whole state of a Rockman EXE match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// House rules.
    pub rules: Rules,
    /// The two players.
    pub players: [PlayerState; 2],
    /// Card data by id (shared: it never changes during a match).
    pub cards: Arc<BTreeMap<String, CardInfo>>,
    /// Turn number, from 1.
    pub turn: u32,
    /// Current step.
    pub step: Step,
    /// The first player (先攻) of this turn, once decided.
    pub first: Option<Seat>,
    /// The player whose battle action it is.
    pub active: Option<Seat>,
    /// Passes in a row this battle phase.
    pub passes: u8,
    /// The last attack.
    pub last_attack: Option<AttackReport>,
}

/// A move at the Rockman EXE table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Move {
    /// Setup: put a navi from the deck on the centre square of one's area.
    OpeningNavi {
        /// Who.
        player: Seat,
        /// The navi's card id.
        card: String,
    },
    /// ORDER: the janken winner is the first player this turn.
    Janken {
        /// The winner.
        winner: Seat,
    },
    /// TRANSFER: place a character (navi or virus) face up on an empty square.
    Transfer {
        /// Who.
        player: Seat,
        /// The card id.
        card: String,
        /// The square.
        square: Square,
    },
    /// TRANSFER (Lv2): evolve the virus on a square into the virus its card names.
    Evolve {
        /// Who.
        player: Seat,
        /// The square of the virus that evolves.
        square: Square,
        /// The evolved virus's card id.
        card: String,
    },
    /// TRANSFER: place a chip face down in the chip zone (the card stays secret until used).
    PlaceChip {
        /// Who.
        player: Seat,
    },
    /// TRANSFER (Lv3): attach a style card to a navi.
    AttachStyle {
        /// Who.
        player: Seat,
        /// The style's card id.
        card: String,
        /// The navi's square.
        square: Square,
    },
    /// TRANSFER: the player is done placing.
    EndTransfer {
        /// Who.
        player: Seat,
    },
    /// BATTLE A: discard a hand card and move one own area card one square up/down/left/right.
    MoveCard {
        /// Who.
        player: Seat,
        /// From this square.
        from: Square,
        /// To this square.
        to: Square,
        /// The hand card discarded as the cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        discard: Option<String>,
    },
    /// BATTLE B: the card on a square uses its printed attack; it becomes acted.
    Attack {
        /// Who.
        player: Seat,
        /// The attacking card's square.
        from: Square,
        /// Target squares in the opponent's area (needed for `any` and `manual` attacks).
        #[serde(default, skip_serializing_if = "squares_empty")]
        target: Squares,
        /// Change to the printed attack power from effects the players resolve (e.g. a style).
        #[serde(default, skip_serializing_if = "is_zero")]
        bonus: i32,
    },
    /// BATTLE C: turn a chip of the chip zone face up, use it and discard it.
    UseChip {
        /// Who.
        player: Seat,
        /// The chip's card id.
        card: String,
        /// The own character whose lane and rank the chip's attack uses.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<Square>,
        /// Target squares in the opponent's area (for `any` and `manual` chips).
        #[serde(default, skip_serializing_if = "squares_empty")]
        target: Squares,
        /// Change to the printed attack power.
        #[serde(default, skip_serializing_if = "is_zero")]
        bonus: i32,
    },
    /// BATTLE D: play a battler card from hand; its text is resolved by the players.
    Battler {
        /// Who.
        player: Seat,
        /// The battler's card id.
        card: String,
    },
    /// BATTLE E: do nothing (also when a player cannot act).
    Pass {
        /// Who.
        player: Seat,
    },
    /// END (1): the end-phase effects are resolved; END (2) clears acted status and damage.
    EndEffects,
    /// END (3): discard unwanted hand cards and draw back to 5 (once per end phase).
    Exchange {
        /// Who.
        player: Seat,
        /// The cards discarded (may be empty).
        #[serde(default)]
        discard: CardList,
    },
    /// A card effect the players resolved, entered as its changes (any phase).
    Effect {
        /// Whose effect.
        player: Seat,
        /// Change to the player's own HP gauge.
        #[serde(default, skip_serializing_if = "is_zero")]
        hp: i32,
        /// Change to the opponent's HP gauge.
        #[serde(default, skip_serializing_if = "is_zero")]
        opp_hp: i32,
        /// Cards the player draws.
        #[serde(default, skip_serializing_if = "is_zero")]
        draw: i32,
        /// Hand cards the player discards.
        #[serde(default, skip_serializing_if = "cards_empty")]
        discard: CardList,
        /// A card on this square is affected (the player's own area, or the opponent's with `opp`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        square: Option<Square>,
        /// The square is in the opponent's area.
        #[serde(default, skip_serializing_if = "is_false")]
        opp: bool,
        /// Deal this attack power to the card on `square` (virus defence and navi HP rules apply).
        #[serde(default, skip_serializing_if = "is_zero")]
        damage: i32,
        /// Set the card on `square` acted (`true`) or unacted (`false`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        acted: Option<bool>,
        /// Move the card on `square` to this empty square of the same area.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<Square>,
        /// Send the card on `square` to its owner's discard pile.
        #[serde(default, skip_serializing_if = "is_false")]
        destroy: bool,
        /// What the effect did, in the players' words.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        note: String,
    },
}

fn squares_empty(s: &Squares) -> bool {
    s.0.is_empty()
}
fn cards_empty(s: &CardList) -> bool {
    s.0.is_empty()
}
fn is_zero(v: &i32) -> bool {
    *v == 0
}
fn is_false(v: &bool) -> bool {
    !*v
}

/// One change of a Rockman EXE state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A card of the unplayed cards was put on a square (the hand or deck count drops).
    Put {
        /// Owner.
        seat: Seat,
        /// Card id.
        card: String,
        /// Square.
        square: Square,
        /// True when it came from the hand (false: from the deck at setup).
        from_hand: bool,
    },
    /// The virus on a square went to the discard pile and this card took its place.
    Evolved(Seat, Square, String),
    /// A chip went face down into the chip zone.
    ChipPlaced(Seat),
    /// A style was attached to the navi on a square (an old one goes to the discard pile).
    StyleAttached(Seat, Square, String),
    /// The player finished transferring.
    TransferDone(Seat),
    /// A card moved (swapping with a card on the destination, if any).
    Moved(Seat, Square, Square),
    /// A hand card went to the discard pile.
    Discarded(Seat, String),
    /// A card of the area got acted / unacted.
    SetActed(Seat, Square, bool),
    /// A virus's damage is now this.
    SetDamage(Seat, Square, u32),
    /// The card on a square (and its style) went to the discard pile.
    Destroyed(Seat, Square),
    /// A face-down chip was used and discarded.
    ChipUsed(Seat, String),
    /// A battler was played.
    BattlerPlayed(Seat, String),
    /// An attack's result.
    Attacked(AttackReport),
    /// A player drew a card.
    Drew(Seat),
    /// The discard pile became the deck.
    Reshuffled(Seat),
    /// A player's HP gauge is now this.
    SetHp(Seat, i32),
    /// A new turn began: per-turn values reset.
    TurnBegan(u32),
    /// The first player of this turn.
    FirstIs(Seat),
    /// The match moves to a step.
    StepTo(Step),
    /// The battle action passes to this player.
    ActiveIs(Option<Seat>),
    /// Passes in a row.
    SetPasses(u8),
    /// The player passed for good (pass-is-final).
    PassedOut(Seat),
    /// END (2): every character unacted, all damage 0.
    ClearedArea,
    /// The player made the END (3) exchange.
    Exchanged(Seat),
    /// Manual: set the hand size.
    SetHand(Seat, i32),
    /// Manual: set the deck size.
    SetDeck(Seat, i32),
    /// Manual: set the face-down chip count.
    SetChips(Seat, i32),
    /// Manual: set the turn number.
    SetTurn(u32),
}

fn other(seat: Seat) -> Seat {
    1 - seat
}

fn check_seat(seat: Seat) -> Result<(), Impossible> {
    if seat < 2 {
        Ok(())
    } else {
        Err(Impossible::new(format!(
            "Rockman EXE has seats 0 and 1, not {seat}"
        )))
    }
}

fn reference(section: &str) -> String {
    format!("rockman-exe.md {section}; {REF_SEED}")
}

fn rule(id: &str, sentence: impl Into<String>, section: &str) -> Violation {
    Violation::new(&format!("rockman-exe.{id}"), sentence, &reference(section))
}

/// A header for a match with decks from a catalogue's ready-made decks.
pub fn demo_header(
    catalogue: &Catalogue,
    names: [&str; 2],
    decks: [&str; 2],
) -> Result<MatchHeader, SetupError> {
    MatchHeader::with_ready_made_decks(GameId::RockmanExe, catalogue, &names, &decks)
}

/// Resolves one hit of `attack` on a virus with this defence, HP and damage so far (digest §5
/// `hit_virus`): the new damage, or `None` when the defence blocks it.
pub fn hit_virus(
    attack: u32,
    defence: u32,
    acted: bool,
    damage: u32,
    equal_passes: bool,
) -> Option<u32> {
    let def = if acted { 0 } else { defence };
    let through = if equal_passes {
        attack >= def
    } else {
        attack > def || def == 0
    };
    through.then(|| damage.saturating_add(attack))
}

/// Who is first this turn by ORDER rules (1) and (2); `None` when janken must decide.
pub fn order_first(hp: [i32; 2], cards: [i32; 2]) -> Option<Seat> {
    if hp[0] != hp[1] {
        return Some(if hp[0] < hp[1] { 0 } else { 1 });
    }
    if cards[0] != cards[1] {
        return Some(if cards[0] < cards[1] { 0 } else { 1 });
    }
    None
}

impl State {
    /// Columns of each area.
    pub fn cols(&self) -> u8 {
        self.rules.area_cols
    }
    /// Rows of each area.
    pub fn rows(&self) -> u8 {
        self.rules.area_rows
    }
    /// The centre square (where the opening navi stands).
    pub fn centre(&self) -> Square {
        Square::new((self.cols() / 2) as i8, (self.rows() / 2) as i8)
    }
    /// True when the square lies in an area.
    pub fn on_area(&self, sq: Square) -> bool {
        index(sq, self.cols(), self.area_len()).is_some()
    }
    fn area_len(&self) -> usize {
        usize::from(self.cols()) * usize::from(self.rows())
    }
    /// The card on a player's square, if any.
    pub fn at(&self, seat: Seat, sq: Square) -> Option<&AreaCard> {
        let i = index(sq, self.cols(), self.area_len())?;
        self.players.get(seat)?.area.get(i)?.as_ref()
    }
    fn at_mut(&mut self, seat: Seat, sq: Square) -> Option<&mut Option<AreaCard>> {
        let i = index(sq, self.cols(), self.area_len())?;
        self.players.get_mut(seat)?.area.get_mut(i)
    }
    /// Every square of an area, front rank first.
    pub fn squares(&self) -> Vec<Square> {
        let mut out = Vec::new();
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                out.push(Square::new(c as i8, r as i8));
            }
        }
        out
    }
    fn card(&self, id: &str) -> Result<&CardInfo, Impossible> {
        self.cards
            .get(id)
            .ok_or_else(|| Impossible::new(format!("card `{id}` is in neither player's deck")))
    }
    fn label(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label)
    }
    fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("?", |p| p.name.as_str())
    }
    /// The second player this turn.
    pub fn second(&self) -> Option<Seat> {
        self.first.map(other)
    }
    /// The highest chip / virus level this player may use now (Lv1 / Lv2 rules).
    pub fn max_level(&self, seat: Seat) -> u8 {
        self.players.get(seat).map_or(1, |p| max_level(p.hp))
    }
    /// Cards in area + chip zone, as ORDER rule (2) counts them.
    pub fn table_cards(&self, seat: Seat) -> i32 {
        self.players
            .get(seat)
            .map_or(0, |p| p.table_cards(self.rules.order_counts_styles))
    }
    fn has_unplayed(&self, seat: Seat, card: &str) -> bool {
        self.players.get(seat).is_some_and(|p| {
            p.unplayed
                .binary_search_by(|c| c.as_str().cmp(card))
                .is_ok()
        })
    }
    /// The facing column in the other area.
    pub fn facing(&self, col: i8) -> i8 {
        self.cols() as i8 - 1 - col
    }
    /// The end-phase effects on the table now: (owner, card id, text).
    pub fn end_phase_effects(&self) -> Vec<(Seat, String, String)> {
        let mut out = Vec::new();
        for (seat, p) in self.players.iter().enumerate() {
            for c in p.area.iter().flatten() {
                for id in std::iter::once(&c.card).chain(c.style.iter()) {
                    let text = match self.cards.get(id).map(|i| &i.data) {
                        Some(RockmanCard::Navi(n)) => n.end_phase.clone(),
                        Some(RockmanCard::Virus(v)) => v.end_phase.clone(),
                        Some(RockmanCard::Style(s)) => s.end_phase.clone(),
                        _ => None,
                    };
                    if let Some(t) = text {
                        out.push((seat, id.clone(), t));
                    }
                }
            }
        }
        out
    }
    fn hp_after(&self, seat: Seat, delta: i32) -> i32 {
        let now = self.players.get(seat).map_or(0, |p| p.hp);
        let mut v = now.saturating_add(delta).max(0);
        if let Some(cap) = self.rules.hp_cap
            && delta > 0
        {
            v = v.min(cap.max(now));
        }
        v
    }
}

/// Runs events on a scratch copy so that later steps of one move see earlier ones.
struct Builder {
    state: State,
    events: Vec<Event>,
}

impl Builder {
    fn new(state: &State) -> Self {
        Builder {
            state: state.clone(),
            events: Vec::new(),
        }
    }
    fn push(&mut self, event: Event) {
        Rockman::apply(&mut self.state, &event);
        self.events.push(event);
    }
    fn done(self, violations: Vec<Violation>) -> Decision<Event> {
        Decision {
            events: self.events,
            violations,
        }
    }
    /// Draws until the hand holds 5 (digest §5 `draw_to_five`).
    fn draw_to_five(&mut self, seat: Seat, penalty: bool) {
        while self.state.players[seat].hand < HAND_SIZE {
            if !self.draw_one(seat, penalty) {
                return;
            }
        }
    }
    /// Draws one card; false when nothing could be drawn (or the player lost).
    fn draw_one(&mut self, seat: Seat, penalty: bool) -> bool {
        if self.state.players[seat].deck <= 0 {
            if penalty || self.state.rules.deck_out_any_draw {
                let hp = self.state.hp_after(seat, -DECK_OUT_PENALTY);
                self.push(Event::SetHp(seat, hp));
            }
            self.push(Event::Reshuffled(seat));
            if self.state.players[seat].hp <= 0 || self.state.players[seat].deck <= 0 {
                return false;
            }
        }
        self.push(Event::Drew(seat));
        true
    }
    /// ORDER and DRAW of a new turn.
    fn begin_turn(&mut self, turn: u32) {
        self.push(Event::TurnBegan(turn));
        let hp = [self.state.players[0].hp, self.state.players[1].hp];
        let cards = [self.state.table_cards(0), self.state.table_cards(1)];
        match (turn > 1).then(|| order_first(hp, cards)).flatten() {
            Some(first) => {
                self.push(Event::FirstIs(first));
                self.begin_draw();
            }
            None => self.push(Event::StepTo(Step::Janken)),
        }
    }
    /// DRAW, then TRANSFER for the first player.
    fn begin_draw(&mut self) {
        let first = self.state.first.unwrap_or(0);
        for seat in [first, other(first)] {
            self.draw_to_five(seat, true);
        }
        self.push(Event::StepTo(Step::TransferFirst));
    }
    /// The battle phase ends: END (1), or straight to END (2)–(3).
    fn end_battle(&mut self) {
        self.push(Event::ActiveIs(None));
        if self.state.end_phase_effects().is_empty() {
            self.push(Event::ClearedArea);
            self.push(Event::StepTo(Step::Exchange));
        } else {
            self.push(Event::StepTo(Step::EndEffects));
        }
    }
    /// After a battle action by `seat`: the other player acts next (unless they passed for good).
    fn next_action(&mut self, seat: Seat, passed: bool) {
        let pass_final = self.state.rules.battle_end == BattleEnd::PassIsFinal;
        if passed {
            if pass_final {
                self.push(Event::PassedOut(seat));
                if self.state.players.iter().all(|p| p.passed_out) {
                    return self.end_battle();
                }
            } else {
                let n = self.state.passes.saturating_add(1);
                self.push(Event::SetPasses(n));
                if n >= 2 {
                    return self.end_battle();
                }
            }
        } else if self.state.passes != 0 {
            self.push(Event::SetPasses(0));
        }
        let next = if pass_final && self.state.players[other(seat)].passed_out {
            seat
        } else {
            other(seat)
        };
        self.push(Event::ActiveIs(Some(next)));
    }
    /// Deals `attack` to the card on the opponent's square; returns the hit.
    fn hit(&mut self, owner: Seat, sq: Square, attack: u32) -> Option<Hit> {
        let card = self.state.at(owner, sq)?.clone();
        let info = self.state.cards.get(&card.card)?.clone();
        let result = match &info.data {
            RockmanCard::Virus(v) => {
                match hit_virus(
                    attack,
                    v.defence,
                    card.acted,
                    card.damage,
                    self.state.rules.equal_attack_passes,
                ) {
                    None => HitResult::Blocked {
                        defence: if card.acted { 0 } else { v.defence },
                    },
                    Some(total) if total >= v.hp => {
                        self.push(Event::Destroyed(owner, sq));
                        HitResult::Destroyed { total }
                    }
                    Some(total) => {
                        self.push(Event::SetDamage(owner, sq, total));
                        HitResult::Damaged { total }
                    }
                }
            }
            _ => {
                let now = self
                    .state
                    .hp_after(owner, -i32::try_from(attack).unwrap_or(i32::MAX));
                self.push(Event::SetHp(owner, now));
                HitResult::Hp { now }
            }
        };
        Some(Hit {
            owner,
            square: sq,
            card: card.card,
            attack,
            result,
        })
    }
}

fn step_text(state: &State) -> String {
    let t = state.turn;
    let first = state
        .first
        .map(|s| state.name(s).to_owned())
        .unwrap_or_default();
    let second = state
        .second()
        .map(|s| state.name(s).to_owned())
        .unwrap_or_default();
    match state.step {
        Step::OpeningNavi => "setup: each player puts an opening navi on the centre square".into(),
        Step::Janken => format!("turn {t} order: janken decides the first player"),
        Step::TransferFirst => format!("turn {t} transfer: {first} (first) places cards"),
        Step::TransferSecond => format!("turn {t} transfer: {second} (second) places cards"),
        Step::Battle => format!(
            "turn {t} battle: {}'s action",
            state.active.map(|s| state.name(s)).unwrap_or("?")
        ),
        Step::EndEffects => format!("turn {t} end (1): resolve the end-phase effects"),
        Step::Exchange => format!("turn {t} end (3): discard and draw back to {HAND_SIZE}"),
    }
}

fn wrong_phase(state: &State, what: &str, when: &str) -> Violation {
    rule(
        "phase-order",
        format!(
            "{what} belongs to {when}; the match is at {}.",
            step_text(state)
        ),
        "§3",
    )
}

/// The opponent's squares an attack from `from` reaches with this target pattern (for `any` and
/// `manual`: every occupied square; the attacker names them).
fn reach(state: &State, attacker: Seat, from: Option<Square>, target: Target) -> Vec<Square> {
    let foe = other(attacker);
    let occupied: Vec<Square> = state
        .squares()
        .into_iter()
        .filter(|&q| state.at(foe, q).is_some())
        .collect();
    let lane = |from: Square| -> Vec<Square> {
        let col = state.facing(from.col);
        occupied.iter().copied().filter(|q| q.col == col).collect()
    };
    match (target, from) {
        (Target::Any | Target::Manual, _) => occupied,
        (_, None) => Vec::new(),
        (Target::Adjacent, Some(f)) => {
            if f.row != 0 {
                Vec::new()
            } else {
                lane(f).into_iter().filter(|q| q.row == 0).collect()
            }
        }
        (Target::Lane, Some(f)) => lane(f).into_iter().take(1).collect(),
        (Target::LaneAll, Some(f)) => lane(f),
    }
}

/// Checks an attack's targets and returns the squares hit (explicit targets win, with a
/// violation when they are out of reach).
fn targets(
    state: &State,
    attacker: Seat,
    from: Option<Square>,
    pattern: Target,
    named: &Squares,
    label: &str,
    v: &mut Vec<Violation>,
) -> Result<Vec<Square>, Impossible> {
    let foe = other(attacker);
    for q in &named.0 {
        if !state.on_area(*q) {
            return Err(Impossible::new(format!(
                "{q} is not a square of the opponent's area"
            )));
        }
    }
    let reachable = reach(state, attacker, from, pattern);
    let pattern_text = match pattern {
        Target::Adjacent => {
            "the enemy card straight ahead across the border (the attacker must stand in its front rank)"
        }
        Target::Lane => "the first enemy card straight ahead in its lane",
        Target::LaneAll => "every enemy card in its lane",
        Target::Any => "any one enemy card",
        Target::Manual => "the enemy cards its text names",
    };
    let section = "§10 gap 4; catalogue-rockman-exe.md target";
    match pattern {
        Target::Any | Target::Manual => {
            if named.0.is_empty() {
                return Err(Impossible::new(format!(
                    "{label} hits {pattern_text}: name the target square(s) in the opponent's area"
                )));
            }
            if pattern == Target::Any && named.0.len() > 1 {
                v.push(rule(
                    "attack-range",
                    format!("{label} hits {pattern_text}, not {} cards.", named.0.len()),
                    section,
                ));
            }
            for q in &named.0 {
                if state.at(foe, *q).is_none() {
                    v.push(rule(
                        "attack-range",
                        format!(
                            "{label} must hit an enemy card; {}'s square {q} is empty.",
                            state.name(foe)
                        ),
                        section,
                    ));
                }
            }
            Ok(named.0.clone())
        }
        _ => {
            if reachable.is_empty() {
                v.push(rule(
                    "attack-range",
                    format!(
                        "{label} hits {pattern_text}, and there is none from {}.",
                        from.map_or_else(|| "?".to_owned(), |f| f.to_string())
                    ),
                    section,
                ));
                return Ok(named.0.clone());
            }
            if named.0.is_empty() {
                return Ok(reachable);
            }
            let mut a = named.0.clone();
            a.sort();
            let mut b = reachable.clone();
            b.sort();
            if a != b {
                let list: Vec<String> = reachable.iter().map(ToString::to_string).collect();
                v.push(rule(
                    "attack-range",
                    format!("{label} hits {pattern_text}: {}.", list.join(" ")),
                    section,
                ));
            }
            Ok(named.0.clone())
        }
    }
}

impl Game for Rockman {
    const ID: GameId = GameId::RockmanExe;
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
                game: GameId::RockmanExe,
                expected: "2".into(),
                got: players.len(),
            });
        }
        for (name, v, lo) in [
            ("area_cols", rules.area_cols, 1),
            ("area_rows", rules.area_rows, 1),
            ("starting_hand", rules.starting_hand, 0),
        ] {
            let hi = if name == "starting_hand" {
                HAND_SIZE as u8
            } else {
                MAX_SIDE
            };
            if v < lo || v > hi {
                return Err(SetupError::Rules(format!(
                    "{name} must be within {lo}..={hi}, not {v}"
                )));
            }
        }
        let mut cards = BTreeMap::new();
        let mut seats = Vec::new();
        for p in players {
            let mut count: BTreeMap<&str, u16> = BTreeMap::new();
            let mut main = Vec::new();
            for id in &p.deck {
                let Some(card) = catalogue.card(id) else {
                    return Err(SetupError::UnknownCard {
                        player: p.name.clone(),
                        card: id.clone(),
                        catalogue: catalogue.set.id.clone(),
                    });
                };
                let n = count.entry(id.as_str()).or_default();
                *n = n.saturating_add(1);
                main.push(CopyRef {
                    card: id.clone(),
                    copy: *n,
                });
                if let CardData::RockmanExe(data) = &card.data {
                    cards.insert(
                        id.clone(),
                        CardInfo {
                            name_ja: card.name_ja.clone(),
                            name_en: card.name_en.clone(),
                            text: card.text.clone(),
                            data: data.clone(),
                        },
                    );
                }
            }
            main.sort();
            let deck = Deck {
                game: GameId::RockmanExe,
                set: catalogue.set.id.clone(),
                name: p.deck_name.clone(),
                owner: p.name.clone(),
                variant: None,
                main,
                extra: Vec::new(),
            };
            let violations = crate::catalogue::rockman::check_deck(&deck, catalogue);
            if !violations.is_empty() {
                return Err(SetupError::IllegalDeck {
                    player: p.name.clone(),
                    violations,
                });
            }
            let mut unplayed = p.deck.clone();
            unplayed.sort();
            seats.push(PlayerState {
                name: p.name.clone(),
                hp: START_HP,
                hand: 0,
                deck: p.deck.len() as i32,
                chips: 0,
                chips_placed_this_turn: 0,
                unplayed,
                discard: Vec::new(),
                area: vec![None; usize::from(rules.area_cols) * usize::from(rules.area_rows)],
                battler: None,
                placed_character: false,
                placed_chip: false,
                attached_style: false,
                passed_out: false,
                exchanged: false,
            });
        }
        let [a, b]: [PlayerState; 2] = seats.try_into().map_err(|_| SetupError::PlayerCount {
            game: GameId::RockmanExe,
            expected: "2".into(),
            got: players.len(),
        })?;
        Ok(State {
            rules: rules.clone(),
            players: [a, b],
            cards: Arc::new(cards),
            turn: 1,
            step: Step::OpeningNavi,
            first: None,
            active: None,
            passes: 0,
            last_attack: None,
        })
    }

    fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
        let mut b = Builder::new(state);
        let mut v = Vec::new();
        match mv {
            Move::OpeningNavi { player, card } => {
                check_seat(*player)?;
                if state.step != Step::OpeningNavi {
                    return Err(Impossible::new(
                        "the opening navis are placed at setup only",
                    ));
                }
                let info = state.card(card)?;
                if !matches!(info.data, RockmanCard::Navi(_)) {
                    return Err(Impossible::new(format!(
                        "{} is a {}, not a navi",
                        info.label(),
                        info.data.kind()
                    )));
                }
                if !state.has_unplayed(*player, card) {
                    return Err(Impossible::new(format!(
                        "{}'s deck holds no {}",
                        state.name(*player),
                        info.label()
                    )));
                }
                let centre = state.centre();
                if state.at(*player, centre).is_some() {
                    return Err(Impossible::new(format!(
                        "{} already has an opening navi",
                        state.name(*player)
                    )));
                }
                b.push(Event::Put {
                    seat: *player,
                    card: card.clone(),
                    square: centre,
                    from_hand: false,
                });
                if (0..2).all(|s| b.state.at(s, centre).is_some()) {
                    for seat in 0..2 {
                        for _ in 0..state.rules.starting_hand {
                            b.draw_one(seat, false);
                        }
                    }
                    b.push(Event::StepTo(Step::Janken));
                }
            }
            Move::Janken { winner } => {
                check_seat(*winner)?;
                if state.step != Step::Janken {
                    return Err(Impossible::new(format!(
                        "janken decides the first player only on turn 1 or after a tie on HP and card count; the match is at {}",
                        step_text(state)
                    )));
                }
                b.push(Event::FirstIs(*winner));
                b.begin_draw();
            }
            Move::Transfer {
                player,
                card,
                square,
            } => {
                check_seat(*player)?;
                let info = state.card(card)?;
                let p = &state.players[*player];
                if !info.data.is_character() {
                    return Err(Impossible::new(format!(
                        "{} is a {}: only navis and viruses (キャラ) go on the area",
                        info.label(),
                        info.data.kind()
                    )));
                }
                transfer_checks(state, *player, card, &mut v)?;
                if !state.on_area(*square) {
                    return Err(Impossible::new(format!(
                        "{square} is not a square of {}'s area",
                        p.name
                    )));
                }
                if let Some(c) = state.at(*player, *square) {
                    return Err(Impossible::new(format!(
                        "{square} holds {}: a character goes on an empty square (空いてるマス)",
                        state.label(&c.card)
                    )));
                }
                if p.placed_character {
                    v.push(rule(
                        "transfer-character",
                        format!(
                            "{} already placed a character this transfer phase: at most 1 character (navi or virus) per transfer phase.",
                            p.name
                        ),
                        "§3 TRANSFER",
                    ));
                }
                if let RockmanCard::Virus(virus) = &info.data
                    && state.rules.lv2_virus_limit
                    && virus.level > state.max_level(*player)
                {
                    v.push(rule(
                        "lv2-virus-level",
                        format!(
                            "Lv2 rule: with HP {} {} may transfer viruses up to level {}; {} is level {}.",
                            p.hp,
                            p.name,
                            state.max_level(*player),
                            info.label(),
                            virus.level
                        ),
                        "§8 Lv2",
                    ));
                }
                b.push(Event::Put {
                    seat: *player,
                    card: card.clone(),
                    square: *square,
                    from_hand: true,
                });
            }
            Move::Evolve {
                player,
                square,
                card,
            } => {
                check_seat(*player)?;
                let info = state.card(card)?;
                let Some(base) = state.at(*player, *square) else {
                    return Err(Impossible::new(format!(
                        "{} has no card on {square} to evolve",
                        state.name(*player)
                    )));
                };
                let RockmanCard::Virus(base_virus) = &state.card(&base.card)?.data else {
                    return Err(Impossible::new(format!(
                        "{} on {square} is not a virus",
                        state.label(&base.card)
                    )));
                };
                if !matches!(info.data, RockmanCard::Virus(_)) {
                    return Err(Impossible::new(format!("{} is not a virus", info.label())));
                }
                transfer_checks(state, *player, card, &mut v)?;
                if !state.rules.lv2_evolution {
                    v.push(rule(
                        "lv2-evolution",
                        "Virus evolution is the optional Lv2 rule, which is not in play in this match.",
                        "§8 Lv2",
                    ));
                }
                if !base_virus.evolves_to.contains(card) {
                    let to = if base_virus.evolves_to.is_empty() {
                        "nothing".to_owned()
                    } else {
                        base_virus
                            .evolves_to
                            .iter()
                            .map(|id| state.label(id))
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    v.push(rule(
                        "evolution-link",
                        format!(
                            "{} evolves into {to} (as its card says), not into {}.",
                            state.label(&base.card),
                            info.label()
                        ),
                        "§8 Lv2",
                    ));
                }
                if state.rules.evolution_uses_character && state.players[*player].placed_character {
                    v.push(rule(
                        "transfer-character",
                        format!(
                            "{} already placed a character this transfer phase; an evolution counts as that 1 placement.",
                            state.name(*player)
                        ),
                        "§8 Lv2, §10 gap 14",
                    ));
                }
                b.push(Event::Evolved(*player, *square, card.clone()));
            }
            Move::PlaceChip { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                if p.hand < 1 {
                    return Err(Impossible::new(format!("{} has no card in hand", p.name)));
                }
                transfer_turn(state, *player, &mut v);
                if p.placed_chip {
                    v.push(rule(
                        "transfer-chip",
                        format!(
                            "{} already placed a chip this transfer phase: at most 1 chip per transfer phase.",
                            p.name
                        ),
                        "§3 TRANSFER",
                    ));
                }
                if let Some(cap) = state.rules.chip_zone_cap
                    && p.chips >= i32::from(cap)
                {
                    v.push(rule(
                        "chip-zone-cap",
                        format!(
                            "House rule: a chip zone holds at most {cap} chips; {} has {}.",
                            p.name, p.chips
                        ),
                        "§10 gap 9",
                    ));
                }
                b.push(Event::ChipPlaced(*player));
            }
            Move::AttachStyle {
                player,
                card,
                square,
            } => {
                check_seat(*player)?;
                let info = state.card(card)?;
                if !matches!(info.data, RockmanCard::Style(_)) {
                    return Err(Impossible::new(format!(
                        "{} is not a style card",
                        info.label()
                    )));
                }
                let Some(navi) = state.at(*player, *square) else {
                    return Err(Impossible::new(format!(
                        "{} has no card on {square}",
                        state.name(*player)
                    )));
                };
                if !matches!(state.card(&navi.card)?.data, RockmanCard::Navi(_)) {
                    return Err(Impossible::new(format!(
                        "a style card attaches to a navi; {} on {square} is not one",
                        state.label(&navi.card)
                    )));
                }
                transfer_checks(state, *player, card, &mut v)?;
                let p = &state.players[*player];
                if !state.rules.lv3_styles {
                    v.push(rule(
                        "lv3-style",
                        "Style cards are the optional Lv3 rule, which is not in play in this match.",
                        "§8 Lv3",
                    ));
                }
                if p.attached_style {
                    v.push(rule(
                        "transfer-style",
                        format!(
                            "{} already attached a style card this transfer phase: only 1 per transfer phase.",
                            p.name
                        ),
                        "§8 Lv3",
                    ));
                }
                if state.rules.style_uses_character && p.placed_character {
                    v.push(rule(
                        "transfer-character",
                        format!(
                            "House rule: a style uses the 1 character placement, which {} already used.",
                            p.name
                        ),
                        "§10 gap 14",
                    ));
                }
                b.push(Event::StyleAttached(*player, *square, card.clone()));
            }
            Move::EndTransfer { player } => {
                check_seat(*player)?;
                let expected = match state.step {
                    Step::TransferFirst => state.first,
                    Step::TransferSecond => state.second(),
                    _ => None,
                };
                if expected != Some(*player) {
                    return Err(Impossible::new(format!(
                        "it is not {}'s transfer; the match is at {}",
                        state.name(*player),
                        step_text(state)
                    )));
                }
                b.push(Event::TransferDone(*player));
                if state.step == Step::TransferFirst {
                    b.push(Event::StepTo(Step::TransferSecond));
                } else {
                    b.push(Event::StepTo(Step::Battle));
                    b.push(Event::SetPasses(0));
                    b.push(Event::ActiveIs(state.first));
                }
            }
            Move::MoveCard {
                player,
                from,
                to,
                discard,
            } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                if state.at(*player, *from).is_none() {
                    return Err(Impossible::new(format!("{} has no card on {from}", p.name)));
                }
                if !state.on_area(*to) {
                    let where_ = if to.row < 0 {
                        "into the opponent's area"
                    } else {
                        "off the edge of the area"
                    };
                    return Err(Impossible::new(format!(
                        "[rockman-exe.move-own-area] {to} is {where_}: a card moves only within its owner's area (相手のエリアには移動できない)"
                    )));
                }
                battle_turn(state, *player, "A move (action A)", &mut v);
                let dc = (i32::from(to.col) - i32::from(from.col)).abs();
                let dr = (i32::from(to.row) - i32::from(from.row)).abs();
                if dc + dr != 1 {
                    v.push(rule(
                        "move-orthogonal",
                        format!(
                            "A card moves exactly 1 square up, down, left or right (ナナメには移動できない): {from} to {to} is not."
                        ),
                        "§3 BATTLE A",
                    ));
                }
                if let Some(c) = state.at(*player, *to)
                    && state.rules.move_needs_empty_square
                {
                    v.push(rule(
                        "move-empty",
                        format!(
                            "A card moves onto an empty square; {to} holds {}.",
                            state.label(&c.card)
                        ),
                        "§10 gap 10",
                    ));
                }
                match discard {
                    Some(card) => {
                        hand_card(state, *player, card)?;
                        b.push(Event::Discarded(*player, card.clone()));
                    }
                    None => v.push(rule(
                        "move-cost",
                        format!(
                            "Moving a card costs 1 hand card, discarded (手札を１枚すて); name it with `discard`. {} holds {}.",
                            p.name, p.hand
                        ),
                        "§3 BATTLE A",
                    )),
                }
                b.push(Event::Moved(*player, *from, *to));
                b.next_action(*player, false);
            }
            Move::Attack {
                player,
                from,
                target,
                bonus,
            } => {
                check_seat(*player)?;
                check_change(&[*bonus])?;
                let Some(attacker) = state.at(*player, *from) else {
                    return Err(Impossible::new(format!(
                        "{} has no card on {from}",
                        state.name(*player)
                    )));
                };
                let info = state.card(&attacker.card)?;
                let (attack, pattern) = match &info.data {
                    RockmanCard::Navi(n) => (n.attack, n.target),
                    RockmanCard::Virus(x) => (x.attack, x.target),
                    _ => {
                        return Err(Impossible::new(format!(
                            "{} is not a character",
                            info.label()
                        )));
                    }
                };
                battle_turn(state, *player, "An attack (action B)", &mut v);
                if attacker.acted {
                    v.push(rule(
                        "attack-acted",
                        format!(
                            "{} on {from} is acted (行動済み): it cannot attack again until the end phase.",
                            info.label()
                        ),
                        "§3 BATTLE B",
                    ));
                }
                let label = info.label();
                let hits = targets(state, *player, Some(*from), pattern, target, &label, &mut v)?;
                let power = power(attack, *bonus);
                b.push(Event::SetActed(*player, *from, true));
                attack_with(&mut b, *player, &attacker.card, &hits, power);
                b.next_action(*player, false);
            }
            Move::UseChip {
                player,
                card,
                from,
                target,
                bonus,
            } => {
                check_seat(*player)?;
                check_change(&[*bonus])?;
                let info = state.card(card)?;
                let RockmanCard::Chip(chip) = &info.data else {
                    return Err(Impossible::new(format!("{} is not a chip", info.label())));
                };
                let p = &state.players[*player];
                if p.chips < 1 {
                    return Err(Impossible::new(format!("{}'s chip zone is empty", p.name)));
                }
                if !state.has_unplayed(*player, card) {
                    return Err(Impossible::new(format!(
                        "{} has no unplayed copy of {}",
                        p.name,
                        info.label()
                    )));
                }
                if let Some(f) = from {
                    let ok = state
                        .at(*player, *f)
                        .and_then(|c| state.cards.get(&c.card))
                        .is_some_and(|c| c.data.is_character());
                    if !ok {
                        return Err(Impossible::new(format!(
                            "{} has no character on {f} to aim the chip from",
                            p.name
                        )));
                    }
                }
                battle_turn(state, *player, "Using a chip (action C)", &mut v);
                if state.rules.lv1_chip_limit && chip.level > state.max_level(*player) {
                    v.push(rule(
                        "lv1-chip-level",
                        format!(
                            "Lv1 rule: with HP {} {} may use chips up to level {}; {} is level {}.",
                            p.hp,
                            p.name,
                            state.max_level(*player),
                            info.label(),
                            chip.level
                        ),
                        "§8 Lv1",
                    ));
                }
                if !state.rules.chip_same_turn && p.chips <= p.chips_placed_this_turn {
                    v.push(rule(
                        "chip-same-turn",
                        "House rule: a chip cannot be used in the turn it was placed.",
                        "§10 gap 9",
                    ));
                }
                let label = info.label();
                let hits = match (chip.attack, chip.target) {
                    (Some(attack), Some(pattern)) => {
                        if from.is_none() && !matches!(pattern, Target::Any | Target::Manual) {
                            return Err(Impossible::new(format!(
                                "{label} attacks along the lane of one of your characters: name it with `from`"
                            )));
                        }
                        Some((
                            targets(state, *player, *from, pattern, target, &label, &mut v)?,
                            power(attack, *bonus),
                        ))
                    }
                    _ => None,
                };
                b.push(Event::ChipUsed(*player, card.clone()));
                if let Some((hits, power)) = hits {
                    attack_with(&mut b, *player, card, &hits, power);
                }
                b.next_action(*player, false);
            }
            Move::Battler { player, card } => {
                check_seat(*player)?;
                let info = state.card(card)?;
                if !matches!(info.data, RockmanCard::Battler) {
                    return Err(Impossible::new(format!(
                        "{} is not a battler card",
                        info.label()
                    )));
                }
                hand_card(state, *player, card)?;
                battle_turn(state, *player, "Playing a battler (action D)", &mut v);
                b.push(Event::BattlerPlayed(*player, card.clone()));
                b.next_action(*player, false);
            }
            Move::Pass { player } => {
                check_seat(*player)?;
                if state.step != Step::Battle {
                    return Err(Impossible::new(format!(
                        "passing is a battle action; the match is at {}",
                        step_text(state)
                    )));
                }
                battle_turn(state, *player, "A pass", &mut v);
                b.next_action(*player, true);
            }
            Move::EndEffects => {
                if state.step != Step::EndEffects {
                    return Err(Impossible::new(format!(
                        "there are no end-phase effects to finish at {}",
                        step_text(state)
                    )));
                }
                b.push(Event::ClearedArea);
                b.push(Event::StepTo(Step::Exchange));
            }
            Move::Exchange { player, discard } => {
                check_seat(*player)?;
                if state.step != Step::Exchange {
                    return Err(Impossible::new(match state.step {
                        Step::EndEffects => {
                            "resolve the end-phase effects first (end-effects)".to_owned()
                        }
                        _ => format!(
                            "the exchange is END (3); the match is at {}",
                            step_text(state)
                        ),
                    }));
                }
                let p = &state.players[*player];
                if p.exchanged {
                    v.push(rule(
                        "exchange-once",
                        format!("{} already made the end-phase exchange: it is made once only (交換は１回のみ).", p.name),
                        "§3 END (3)",
                    ));
                }
                discard_cards(state, &mut b, *player, &discard.0)?;
                b.draw_to_five(*player, false);
                b.push(Event::Exchanged(*player));
                if b.state.players.iter().all(|p| p.exchanged) {
                    b.begin_turn(state.turn + 1);
                }
            }
            Move::Effect {
                player,
                hp,
                opp_hp,
                draw,
                discard,
                square,
                opp,
                damage,
                acted,
                to,
                destroy,
                ..
            } => {
                check_seat(*player)?;
                check_change(&[*hp, *opp_hp, *draw, *damage])?;
                if *draw < 0 || *damage < 0 {
                    return Err(Impossible::new("draw and damage are not negative"));
                }
                if *hp != 0 {
                    let now = state.hp_after(*player, *hp);
                    b.push(Event::SetHp(*player, now));
                }
                if *opp_hp != 0 {
                    let now = b.state.hp_after(other(*player), *opp_hp);
                    b.push(Event::SetHp(other(*player), now));
                }
                discard_cards(state, &mut b, *player, &discard.0)?;
                for _ in 0..*draw {
                    if !b.draw_one(*player, false) {
                        break;
                    }
                }
                let owner = if *opp { other(*player) } else { *player };
                let needs_square = *damage != 0 || acted.is_some() || to.is_some() || *destroy;
                match square {
                    Some(sq) => {
                        if state.at(owner, *sq).is_none() {
                            return Err(Impossible::new(format!(
                                "{} has no card on {sq}",
                                state.name(owner)
                            )));
                        }
                        if let Some(a) = acted {
                            b.push(Event::SetActed(owner, *sq, *a));
                        }
                        let mut at = *sq;
                        if let Some(t) = to {
                            if !state.on_area(*t) || b.state.at(owner, *t).is_some() {
                                return Err(Impossible::new(format!(
                                    "{t} is not an empty square of {}'s area",
                                    state.name(owner)
                                )));
                            }
                            b.push(Event::Moved(owner, *sq, *t));
                            at = *t;
                        }
                        if *damage != 0 {
                            let card = b.state.at(owner, at).map(|c| c.card.clone());
                            if let Some(hit) = b.hit(owner, at, u32::try_from(*damage).unwrap_or(0))
                            {
                                b.push(Event::Attacked(AttackReport {
                                    turn: state.turn,
                                    attacker: *player,
                                    card: card.unwrap_or_default(),
                                    hits: vec![hit],
                                }));
                            }
                        }
                        if *destroy && b.state.at(owner, at).is_some() {
                            b.push(Event::Destroyed(owner, at));
                        }
                    }
                    None if needs_square => {
                        return Err(Impossible::new(
                            "name the card's square (`square`) for damage, acted, to or destroy",
                        ));
                    }
                    None => {}
                }
            }
        }
        Ok(b.done(v))
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::Put {
                seat,
                card,
                square,
                from_hand,
            } => {
                take_unplayed(state, *seat, card);
                if let Some(p) = state.players.get_mut(*seat) {
                    if *from_hand {
                        p.hand -= 1;
                        p.placed_character = true;
                    } else {
                        p.deck -= 1;
                    }
                }
                if let Some(slot) = state.at_mut(*seat, *square) {
                    *slot = Some(AreaCard {
                        card: card.clone(),
                        acted: false,
                        damage: 0,
                        style: None,
                    });
                }
            }
            Event::Evolved(seat, sq, card) => {
                take_unplayed(state, *seat, card);
                let old = state.at_mut(*seat, *sq).and_then(|slot| {
                    slot.replace(AreaCard {
                        card: card.clone(),
                        acted: false,
                        damage: 0,
                        style: None,
                    })
                });
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand -= 1;
                    if let Some(old) = old {
                        p.discard.push(old.card);
                        p.discard.extend(old.style);
                    }
                    if state.rules.evolution_uses_character {
                        p.placed_character = true;
                    }
                }
            }
            Event::ChipPlaced(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand -= 1;
                    p.chips += 1;
                    p.chips_placed_this_turn += 1;
                    p.placed_chip = true;
                }
            }
            Event::StyleAttached(seat, sq, card) => {
                take_unplayed(state, *seat, card);
                let old = state
                    .at_mut(*seat, *sq)
                    .and_then(|slot| slot.as_mut())
                    .and_then(|c| c.style.replace(card.clone()));
                let uses_character = state.rules.style_uses_character;
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand -= 1;
                    p.attached_style = true;
                    if uses_character {
                        p.placed_character = true;
                    }
                    p.discard.extend(old);
                }
            }
            Event::TransferDone(_) => {}
            Event::Moved(seat, from, to) => {
                let cols = state.cols();
                if let Some(p) = state.players.get_mut(*seat) {
                    let len = p.area.len();
                    if let (Some(a), Some(b)) = (index(*from, cols, len), index(*to, cols, len)) {
                        p.area.swap(a, b);
                    }
                }
            }
            Event::Discarded(seat, card) => {
                take_unplayed(state, *seat, card);
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand -= 1;
                    p.discard.push(card.clone());
                }
            }
            Event::SetActed(seat, sq, acted) => {
                if let Some(Some(c)) = state.at_mut(*seat, *sq) {
                    c.acted = *acted;
                }
            }
            Event::SetDamage(seat, sq, damage) => {
                if let Some(Some(c)) = state.at_mut(*seat, *sq) {
                    c.damage = *damage;
                }
            }
            Event::Destroyed(seat, sq) => {
                let old = state.at_mut(*seat, *sq).and_then(Option::take);
                if let (Some(old), Some(p)) = (old, state.players.get_mut(*seat)) {
                    p.discard.push(old.card);
                    p.discard.extend(old.style);
                }
            }
            Event::ChipUsed(seat, card) => {
                take_unplayed(state, *seat, card);
                if let Some(p) = state.players.get_mut(*seat) {
                    p.chips -= 1;
                    p.chips_placed_this_turn = p.chips_placed_this_turn.min(p.chips);
                    p.discard.push(card.clone());
                }
            }
            Event::BattlerPlayed(seat, card) => {
                take_unplayed(state, *seat, card);
                let stays = state.rules.battler_stays_in_play;
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand -= 1;
                    if stays {
                        if let Some(old) = p.battler.replace(card.clone()) {
                            p.discard.push(old);
                        }
                    } else {
                        p.discard.push(card.clone());
                    }
                }
            }
            Event::Attacked(report) => state.last_attack = Some(report.clone()),
            Event::Drew(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.deck -= 1;
                    p.hand += 1;
                }
            }
            Event::Reshuffled(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.deck += p.discard.len() as i32;
                    p.unplayed.append(&mut p.discard);
                    p.unplayed.sort();
                }
            }
            Event::SetHp(seat, hp) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hp = *hp;
                }
            }
            Event::TurnBegan(turn) => {
                state.turn = *turn;
                state.first = None;
                state.active = None;
                state.passes = 0;
                for p in &mut state.players {
                    p.placed_character = false;
                    p.placed_chip = false;
                    p.attached_style = false;
                    p.passed_out = false;
                    p.exchanged = false;
                    p.chips_placed_this_turn = 0;
                }
            }
            Event::FirstIs(seat) => state.first = Some(*seat),
            Event::StepTo(step) => state.step = *step,
            Event::ActiveIs(seat) => state.active = *seat,
            Event::SetPasses(n) => state.passes = *n,
            Event::PassedOut(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.passed_out = true;
                }
            }
            Event::ClearedArea => {
                for p in &mut state.players {
                    for c in p.area.iter_mut().flatten() {
                        c.acted = false;
                        c.damage = 0;
                    }
                }
            }
            Event::Exchanged(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.exchanged = true;
                }
            }
            Event::SetHand(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand = *v;
                }
            }
            Event::SetDeck(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.deck = *v;
                }
            }
            Event::SetChips(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.chips = *v;
                    p.chips_placed_this_turn = p.chips_placed_this_turn.min(*v);
                }
            }
            Event::SetTurn(t) => state.turn = *t,
        }
    }

    fn context(state: &State) -> MatchCtx {
        let phases = [
            "Setup 準備",
            "Order 順番決め",
            "Draw ドロー",
            "Transfer 転送",
            "Battle バトル",
            "End エンド",
        ]
        .map(str::to_owned)
        .to_vec();
        let current = match state.step {
            Step::OpeningNavi => 0,
            Step::Janken => 1,
            Step::TransferFirst | Step::TransferSecond => 3,
            Step::Battle => 4,
            Step::EndEffects | Step::Exchange => 5,
        };
        let next = match state.step {
            Step::OpeningNavi => "janken for the first turn, then both draw to 5".to_owned(),
            Step::Janken => "both draw to 5, then the first player transfers".to_owned(),
            Step::TransferFirst => "the second player transfers".to_owned(),
            Step::TransferSecond => "the battle: first player acts first".to_owned(),
            Step::Battle => "two passes in a row end the battle; then the end phase".to_owned(),
            Step::EndEffects => {
                "every character unacted and its damage cleared; then the exchange".to_owned()
            }
            Step::Exchange => format!("turn {}: order (lower HP first), then draw", state.turn + 1),
        };
        let active = match state.step {
            Step::TransferFirst => state.first,
            Step::TransferSecond => state.second(),
            Step::Battle => state.active,
            Step::Exchange => {
                let waiting: Vec<Seat> = (0..2).filter(|&s| !state.players[s].exchanged).collect();
                (waiting.len() == 1).then(|| waiting[0])
            }
            Step::OpeningNavi => {
                let c = state.centre();
                let waiting: Vec<Seat> = (0..2).filter(|&s| state.at(s, c).is_none()).collect();
                (waiting.len() == 1).then(|| waiting[0])
            }
            _ => None,
        };
        MatchCtx {
            players: state.players.iter().map(|p| p.name.clone()).collect(),
            turn: state.turn,
            phase: PhaseView {
                phases,
                current,
                step: step_text(state),
                next,
            },
            active,
            leader: state.first,
            prompts: prompts(state),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let down: Vec<Seat> = (0..2).filter(|&s| state.players[s].hp <= 0).collect();
        match down.as_slice() {
            [] => None,
            [loser] => Some(Outcome::Win {
                winner: other(*loser),
                reason: format!("{}'s HP gauge reached 0", state.players[*loser].name),
            }),
            _ => Some(Outcome::Draw {
                reason: "both HP gauges reached 0 at the same time (§10 gap 12)".into(),
            }),
        }
    }

    fn trackers(state: &State) -> Vec<Tracker> {
        let mut out = vec![Tracker {
            id: TrackerId::game("turn"),
            label: "Turn".into(),
            value: state.turn as i32,
            min: 1,
            max: 999,
        }];
        if let Some(first) = state.first {
            out.push(Tracker {
                id: TrackerId::game("first"),
                label: "First player 先攻 (seat)".into(),
                value: first as i32,
                min: 0,
                max: 1,
            });
        }
        if state.step == Step::Battle && state.rules.battle_end == BattleEnd::TwoPasses {
            out.push(Tracker {
                id: TrackerId::game("passes"),
                label: "Passes in a row".into(),
                value: i32::from(state.passes),
                min: 0,
                max: 1,
            });
        }
        let total = DECK_SIZE as i32;
        for (seat, p) in state.players.iter().enumerate() {
            let mut add =
                |name: &'static str, label: &'static str, value: i32, min: i32, max: i32| {
                    out.push(Tracker {
                        id: TrackerId::player(seat, name),
                        label: label.into(),
                        value,
                        min,
                        max,
                    });
                };
            add(
                "hp",
                "HP gauge ＨＰゲージ",
                p.hp,
                0,
                state.rules.hp_cap.unwrap_or(990).max(p.hp),
            );
            add("hand", "Hand 手札", p.hand, 0, total);
            add("deck", "Deck 山札", p.deck, 0, total);
            add("chips", "Chip zone チップ置き場", p.chips, 0, total);
            let d = p.discard.len() as i32;
            add("discard", "Discard pile 捨札 (changed by moves)", d, d, d);
            if state.rules.lv1_chip_limit {
                let l = i32::from(max_level(p.hp));
                add("chip-level", "Lv1: highest chip level (from HP)", l, l, l);
            }
            if state.rules.lv2_virus_limit {
                let l = i32::from(max_level(p.hp));
                add("virus-level", "Lv2: highest virus level (from HP)", l, l, l);
            }
            for sq in state.squares() {
                let Some(c) = state.at(seat, sq) else {
                    continue;
                };
                let label = state.label(&c.card);
                out.push(Tracker {
                    id: TrackerId::named(Some(seat), format!("acted-{}-{}", sq.col, sq.row)),
                    label: format!("{label} {sq} acted 行動済み (0/1)").into(),
                    value: i32::from(c.acted),
                    min: 0,
                    max: 1,
                });
                if let Some(RockmanCard::Virus(v)) = state.cards.get(&c.card).map(|i| &i.data) {
                    out.push(Tracker {
                        id: TrackerId::named(Some(seat), format!("damage-{}-{}", sq.col, sq.row)),
                        label: format!("{label} {sq} damage ダメージ").into(),
                        value: c.damage as i32,
                        min: 0,
                        max: (v.hp as i32 - 1).max(0),
                    });
                }
            }
        }
        out
    }

    fn adjust(state: &State, tracker: &TrackerId, value: i32) -> Result<Vec<Event>, Impossible> {
        let need_seat = || {
            tracker
                .player
                .filter(|s| *s < 2)
                .ok_or_else(|| Impossible::new(format!("`{tracker}` needs a player")))
        };
        let name = tracker.name.as_ref();
        let square = |prefix: &str| -> Option<Square> {
            name.strip_prefix(prefix)?
                .replacen('-', ",", 1)
                .parse()
                .ok()
        };
        Ok(match name {
            "turn" => vec![Event::SetTurn(
                u32::try_from(value).map_err(|_| Impossible::new("the turn is positive"))?,
            )],
            "first" => vec![Event::FirstIs(usize::try_from(value).unwrap_or(0).min(1))],
            "passes" => vec![Event::SetPasses(u8::try_from(value).unwrap_or(0))],
            "hp" => vec![Event::SetHp(need_seat()?, value)],
            "hand" => vec![Event::SetHand(need_seat()?, value)],
            "deck" => vec![Event::SetDeck(need_seat()?, value)],
            "chips" => vec![Event::SetChips(need_seat()?, value)],
            "discard" | "chip-level" | "virus-level" => Vec::new(),
            _ => {
                let seat = need_seat()?;
                if let Some(sq) = square("acted-") {
                    vec![Event::SetActed(seat, sq, value != 0)]
                } else if let Some(sq) = square("damage-") {
                    vec![Event::SetDamage(
                        seat,
                        sq,
                        u32::try_from(value).unwrap_or(0),
                    )]
                } else {
                    let _ = state;
                    return Err(Impossible::new(format!(
                        "Rockman EXE keeps no number called `{name}`"
                    )));
                }
            }
        })
    }

    fn die_prompts(_state: &State) -> Vec<Prompt> {
        Vec::new() // The game uses no dice (janken decides the order): every die is a free roll.
    }

    fn fulfil(_state: &State, prompt: &Prompt, _roll: &Roll) -> Result<Vec<Event>, Impossible> {
        Err(Impossible::new(format!(
            "Rockman EXE asks for no dice (prompt {})",
            prompt.id
        )))
    }

    fn candidate_moves(state: &State) -> Vec<Move> {
        let mut out = Vec::new();
        let distinct = |seat: Seat, kind: &str| -> Vec<String> {
            let mut ids: Vec<String> = state.players[seat]
                .unplayed
                .iter()
                .filter(|id| state.cards.get(*id).is_some_and(|c| c.data.kind() == kind))
                .cloned()
                .collect();
            ids.dedup();
            ids
        };
        let first_unplayed = |seat: Seat| state.players[seat].unplayed.first().cloned();
        let distinct_unplayed = |seat: Seat| -> Vec<String> {
            let mut ids = state.players[seat].unplayed.clone();
            ids.sort();
            ids.dedup();
            ids
        };
        let squares = state.squares();
        match state.step {
            Step::OpeningNavi => {
                for seat in 0..2 {
                    if state.at(seat, state.centre()).is_none() {
                        out.extend(
                            distinct(seat, "navi")
                                .into_iter()
                                .map(|card| Move::OpeningNavi { player: seat, card }),
                        );
                    }
                }
            }
            Step::Janken => out.extend((0..2).map(|winner| Move::Janken { winner })),
            Step::TransferFirst | Step::TransferSecond => {
                let seat = if state.step == Step::TransferFirst {
                    state.first.unwrap_or(0)
                } else {
                    state.second().unwrap_or(1)
                };
                out.push(Move::EndTransfer { player: seat });
                out.push(Move::PlaceChip { player: seat });
                let empty: Vec<Square> = squares
                    .iter()
                    .copied()
                    .filter(|q| state.at(seat, *q).is_none())
                    .collect();
                // Every empty square: the player puts the card where it stands on the mat.
                for kind in ["virus", "navi"] {
                    for card in distinct(seat, kind) {
                        for sq in &empty {
                            out.push(Move::Transfer {
                                player: seat,
                                card: card.clone(),
                                square: *sq,
                            });
                        }
                    }
                }
                for sq in &squares {
                    let Some(c) = state.at(seat, *sq) else {
                        continue;
                    };
                    match state.cards.get(&c.card).map(|i| &i.data) {
                        Some(RockmanCard::Virus(v)) => {
                            for to in &v.evolves_to {
                                out.push(Move::Evolve {
                                    player: seat,
                                    square: *sq,
                                    card: to.clone(),
                                });
                            }
                        }
                        Some(RockmanCard::Navi(_)) => {
                            for card in distinct(seat, "style") {
                                out.push(Move::AttachStyle {
                                    player: seat,
                                    card,
                                    square: *sq,
                                });
                            }
                        }
                        _ => {}
                    }
                }
            }
            Step::Battle => {
                let Some(seat) = state.active else {
                    return out;
                };
                out.push(Move::Pass { player: seat });
                let foe_cards: Vec<Square> = squares
                    .iter()
                    .copied()
                    .filter(|q| state.at(other(seat), *q).is_some())
                    .collect();
                let own: Vec<Square> = squares
                    .iter()
                    .copied()
                    .filter(|q| state.at(seat, *q).is_some())
                    .collect();
                for from in &own {
                    let Some(c) = state.at(seat, *from) else {
                        continue;
                    };
                    let pattern = match state.cards.get(&c.card).map(|i| &i.data) {
                        Some(RockmanCard::Navi(n)) => n.target,
                        Some(RockmanCard::Virus(v)) => v.target,
                        _ => continue,
                    };
                    // Each bonus the players may add by hand (a style card, an effect): the
                    // panel picks one with a stepper.
                    for bonus in ATTACK_BONUSES {
                        if matches!(pattern, Target::Any | Target::Manual) {
                            for t in &foe_cards {
                                out.push(Move::Attack {
                                    player: seat,
                                    from: *from,
                                    target: Squares(vec![*t]),
                                    bonus,
                                });
                            }
                        } else {
                            out.push(Move::Attack {
                                player: seat,
                                from: *from,
                                target: Squares::default(),
                                bonus,
                            });
                        }
                    }
                    for (dc, dr) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                        let to = Square::new(from.col + dc, from.row + dr);
                        if state.on_area(to) && state.at(seat, to).is_none() {
                            if let Some(discard) = first_unplayed(seat) {
                                out.push(Move::MoveCard {
                                    player: seat,
                                    from: *from,
                                    to,
                                    discard: Some(discard),
                                });
                            }
                            // Without a discard: refused, offered for an agreed override.
                            out.push(Move::MoveCard {
                                player: seat,
                                from: *from,
                                to,
                                discard: None,
                            });
                        }
                    }
                }
                if state.players[seat].chips > 0 {
                    for card in distinct(seat, "chip") {
                        let pattern = match state.cards.get(&card).map(|i| &i.data) {
                            Some(RockmanCard::Chip(c)) => c.target,
                            _ => None,
                        };
                        match pattern {
                            None => out.push(Move::UseChip {
                                player: seat,
                                card,
                                from: None,
                                target: Squares::default(),
                                bonus: 0,
                            }),
                            Some(Target::Any | Target::Manual) => {
                                if let Some(t) = foe_cards.first() {
                                    out.push(Move::UseChip {
                                        player: seat,
                                        card,
                                        from: None,
                                        target: Squares(vec![*t]),
                                        bonus: 0,
                                    });
                                }
                            }
                            Some(_) => {
                                for from in &own {
                                    out.push(Move::UseChip {
                                        player: seat,
                                        card: card.clone(),
                                        from: Some(*from),
                                        target: Squares::default(),
                                        bonus: 0,
                                    });
                                }
                            }
                        }
                    }
                }
                out.extend(
                    distinct(seat, "battler")
                        .into_iter()
                        .map(|card| Move::Battler { player: seat, card }),
                );
            }
            Step::EndEffects => out.push(Move::EndEffects),
            Step::Exchange => {
                for seat in 0..2 {
                    if !state.players[seat].exchanged {
                        out.push(Move::Exchange {
                            player: seat,
                            discard: CardList::default(),
                        });
                        // One unwanted card, whichever the player puts down.
                        for c in distinct_unplayed(seat) {
                            out.push(Move::Exchange {
                                player: seat,
                                discard: CardList(vec![c]),
                            });
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
        let list = |s: &Squares| {
            s.0.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let with_bonus = |b: &i32| {
            if *b == 0 {
                String::new()
            } else {
                format!(" (attack {b:+})")
            }
        };
        match mv {
            Move::OpeningNavi { player, card: c } => {
                format!("{} puts {} on the centre square", name(player), card(c))
            }
            Move::Janken { winner } => {
                format!("{} wins the janken and goes first this turn", name(winner))
            }
            Move::Transfer {
                player,
                card: c,
                square,
            } => format!("{} transfers {} to {square}", name(player), card(c)),
            Move::Evolve {
                player,
                square,
                card: c,
            } => {
                let from = state
                    .at(*player, *square)
                    .map(|a| card(&a.card))
                    .unwrap_or_default();
                format!(
                    "{} evolves {from} on {square} into {}",
                    name(player),
                    card(c)
                )
            }
            Move::PlaceChip { player } => format!("{} places a chip face down", name(player)),
            Move::AttachStyle {
                player,
                card: c,
                square,
            } => format!(
                "{} attaches {} to the navi on {square}",
                name(player),
                card(c)
            ),
            Move::EndTransfer { player } => format!("{} ends the transfer", name(player)),
            Move::MoveCard {
                player,
                from,
                to,
                discard,
            } => {
                let what = state
                    .at(*player, *from)
                    .map(|a| card(&a.card))
                    .unwrap_or_default();
                let cost = discard
                    .as_deref()
                    .map(|d| format!(", discarding {}", card(d)))
                    .unwrap_or_default();
                format!("{} moves {what} from {from} to {to}{cost}", name(player))
            }
            Move::Attack {
                player,
                from,
                target,
                bonus,
            } => {
                let what = state
                    .at(*player, *from)
                    .map(|a| card(&a.card))
                    .unwrap_or_default();
                let at = if target.0.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", list(target))
                };
                format!(
                    "{} attacks with {what} on {from}{at}{}",
                    name(player),
                    with_bonus(bonus)
                )
            }
            Move::UseChip {
                player,
                card: c,
                from,
                target,
                bonus,
            } => {
                let via = from.map(|f| format!(" from {f}")).unwrap_or_default();
                let at = if target.0.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", list(target))
                };
                format!(
                    "{} uses chip {}{via}{at}{}",
                    name(player),
                    card(c),
                    with_bonus(bonus)
                )
            }
            Move::Battler { player, card: c } => {
                format!("{} plays battler {}", name(player), card(c))
            }
            Move::Pass { player } => format!("{} passes", name(player)),
            Move::EndEffects => {
                "End-phase effects done; every character unacted, damage cleared".into()
            }
            Move::Exchange { player, discard } => {
                if discard.0.is_empty() {
                    format!("{} keeps the hand and draws to {HAND_SIZE}", name(player))
                } else {
                    let cards: Vec<String> = discard.0.iter().map(|c| card(c)).collect();
                    format!(
                        "{} discards {} and draws to {HAND_SIZE}",
                        name(player),
                        cards.join(", ")
                    )
                }
            }
            Move::Effect {
                player,
                hp,
                opp_hp,
                draw,
                discard,
                square,
                opp,
                damage,
                acted,
                to,
                destroy,
                note,
            } => {
                let mut parts = Vec::new();
                if *hp != 0 {
                    parts.push(format!("own HP {hp:+}"));
                }
                if *opp_hp != 0 {
                    parts.push(format!("opponent HP {opp_hp:+}"));
                }
                if *draw != 0 {
                    parts.push(format!("draws {draw}"));
                }
                if !discard.0.is_empty() {
                    parts.push(format!("discards {}", discard.0.join(", ")));
                }
                if let Some(sq) = square {
                    let owner = if *opp { other(*player) } else { *player };
                    let what = state
                        .at(owner, *sq)
                        .map(|a| card(&a.card))
                        .unwrap_or_else(|| "?".into());
                    let whose = if *opp { "opponent's " } else { "own " };
                    if let Some(a) = acted {
                        parts.push(format!(
                            "{whose}{what} on {sq} {}",
                            if *a { "acted" } else { "unacted" }
                        ));
                    }
                    if let Some(t) = to {
                        parts.push(format!("{whose}{what} moves {sq} → {t}"));
                    }
                    if *damage != 0 {
                        parts.push(format!("{damage} damage to {whose}{what} on {sq}"));
                    }
                    if *destroy {
                        parts.push(format!("{whose}{what} on {sq} to the discard pile"));
                    }
                }
                format!(
                    "{}'s effect: {}",
                    name(player),
                    crate::core::effect_summary(&parts, note)
                )
            }
        }
    }
}

fn check_change(values: &[i32]) -> Result<(), Impossible> {
    match values
        .iter()
        .find(|v| v.unsigned_abs() > MAX_CHANGE.unsigned_abs())
    {
        Some(v) => Err(Impossible::new(format!(
            "a change of {v} is outside ±{MAX_CHANGE}"
        ))),
        None => Ok(()),
    }
}

fn power(attack: u32, bonus: i32) -> u32 {
    u32::try_from((i64::from(attack) + i64::from(bonus)).max(0)).unwrap_or(0)
}

/// Deals `power` to each target square of the opponent and records the report.
fn attack_with(b: &mut Builder, attacker: Seat, card: &str, squares: &[Square], power: u32) {
    let foe = other(attacker);
    let mut hits = Vec::new();
    for sq in squares {
        if let Some(h) = b.hit(foe, *sq, power) {
            hits.push(h);
        }
    }
    let turn = b.state.turn;
    b.push(Event::Attacked(AttackReport {
        turn,
        attacker,
        card: card.to_owned(),
        hits,
    }));
}

fn take_unplayed(state: &mut State, seat: Seat, card: &str) {
    if let Some(p) = state.players.get_mut(seat)
        && let Ok(i) = p.unplayed.binary_search_by(|c| c.as_str().cmp(card))
    {
        p.unplayed.remove(i);
    }
}

/// A card the player plays from hand: one of the unplayed cards, with a card in hand.
fn hand_card(state: &State, seat: Seat, card: &str) -> Result<(), Impossible> {
    let p = &state.players[seat];
    if p.hand < 1 {
        return Err(Impossible::new(format!("{} has no card in hand", p.name)));
    }
    if !state.has_unplayed(seat, card) {
        return Err(Impossible::new(format!(
            "{} has no unplayed copy of {}",
            p.name,
            state.label(card)
        )));
    }
    Ok(())
}

fn discard_cards(
    state: &State,
    b: &mut Builder,
    seat: Seat,
    cards: &[String],
) -> Result<(), Impossible> {
    if cards.len() as i32 > state.players[seat].hand {
        return Err(Impossible::new(format!(
            "{} holds {} cards, not {}",
            state.name(seat),
            state.players[seat].hand,
            cards.len()
        )));
    }
    for c in cards {
        state.card(c)?;
        if !b.state.has_unplayed(seat, c) {
            return Err(Impossible::new(format!(
                "{} has no unplayed copy of {}",
                state.name(seat),
                state.label(c)
            )));
        }
        b.push(Event::Discarded(seat, c.clone()));
    }
    Ok(())
}

/// The transfer phase and its order: first player, then second player.
fn transfer_turn(state: &State, seat: Seat, v: &mut Vec<Violation>) {
    let expected = match state.step {
        Step::TransferFirst => state.first,
        Step::TransferSecond => state.second(),
        _ => {
            v.push(wrong_phase(state, "Placing cards", "the transfer phase"));
            return;
        }
    };
    if expected != Some(seat) {
        v.push(rule(
            "transfer-order",
            format!(
                "The first player places cards first, then the second player; it is {}'s transfer now.",
                expected.map(|s| state.name(s)).unwrap_or("?")
            ),
            "§3 TRANSFER",
        ));
    }
}

fn transfer_checks(
    state: &State,
    seat: Seat,
    card: &str,
    v: &mut Vec<Violation>,
) -> Result<(), Impossible> {
    hand_card(state, seat, card)?;
    transfer_turn(state, seat, v);
    Ok(())
}

/// The battle phase and its alternation.
fn battle_turn(state: &State, seat: Seat, what: &str, v: &mut Vec<Violation>) {
    if state.step != Step::Battle {
        v.push(wrong_phase(state, what, "the battle phase"));
        return;
    }
    if state.active != Some(seat) {
        let why = if state.players[seat].passed_out {
            format!(
                "{} passed and takes no more actions this battle phase (house rule).",
                state.name(seat)
            )
        } else {
            format!(
                "The players act in turn, one action each; it is {}'s action.",
                state.active.map(|s| state.name(s)).unwrap_or("?")
            )
        };
        v.push(rule("turn-order", why, "§3 BATTLE; §10 gap 8"));
    }
}

fn prompts(state: &State) -> Vec<Prompt> {
    let mut out = Vec::new();
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    let t = state.turn;
    match state.step {
        Step::OpeningNavi => {
            let c = state.centre();
            for seat in 0..2 {
                if state.at(seat, c).is_none() {
                    out.push(choice(
                        format!("navi-{seat}"),
                        Some(seat),
                        format!(
                            "{}: put a navi from your deck on the centre square {c}",
                            state.name(seat)
                        ),
                    ));
                }
            }
        }
        Step::Janken => out.push(choice(
            format!("t{t}-janken"),
            None,
            if t == 1 {
                "Play janken: the winner goes first on turn 1".to_owned()
            } else {
                "Equal HP and equal cards in area + chip zone: play janken; the winner goes first"
                    .to_owned()
            },
        )),
        Step::TransferFirst | Step::TransferSecond => {
            let seat = if state.step == Step::TransferFirst {
                state.first
            } else {
                state.second()
            }
            .unwrap_or(0);
            let p = &state.players[seat];
            let mut can = Vec::new();
            if !p.placed_character {
                can.push("1 character (navi or virus) on an empty square".to_owned());
            }
            if !p.placed_chip {
                can.push("1 chip face down".to_owned());
            }
            if state.rules.lv3_styles && !p.attached_style {
                can.push("1 style card on a navi".to_owned());
            }
            if state.rules.lv2_virus_limit {
                can.push(format!("viruses up to level {}", state.max_level(seat)));
            }
            out.push(choice(
                format!("t{t}-transfer-{seat}"),
                Some(seat),
                format!(
                    "{}: place {}; then end the transfer",
                    p.name,
                    if can.is_empty() {
                        "nothing more".to_owned()
                    } else {
                        can.join(", ")
                    }
                ),
            ));
        }
        Step::Battle => {
            if let Some(seat) = state.active {
                let lv = if state.rules.lv1_chip_limit {
                    format!(" (chips up to level {})", state.max_level(seat))
                } else {
                    String::new()
                };
                out.push(choice(
                    format!("t{t}-battle-{seat}"),
                    Some(seat),
                    format!(
                        "{}: one action — move (discard 1), attack, chip{lv}, battler, or pass",
                        state.name(seat)
                    ),
                ));
            }
        }
        Step::EndEffects => {
            for (i, (seat, id, text)) in state.end_phase_effects().into_iter().enumerate() {
                out.push(choice(
                    format!("t{t}-end-effect-{i}"),
                    Some(seat),
                    format!(
                        "{}: resolve {} — {text}",
                        state.name(seat),
                        state.label(&id)
                    ),
                ));
            }
        }
        Step::Exchange => {
            for seat in 0..2 {
                if !state.players[seat].exchanged {
                    out.push(choice(
                        format!("t{t}-exchange-{seat}"),
                        Some(seat),
                        format!(
                            "{}: discard unwanted cards (or none) and draw back to {HAND_SIZE}",
                            state.name(seat)
                        ),
                    ));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_write_as_col_row() {
        let q: Square = "1,0".parse().unwrap_or(Square::new(9, 9));
        assert_eq!(q, Square::new(1, 0));
        let s: Squares = serde_json::from_str("\"0,0 2,1\"").unwrap_or_default();
        assert_eq!(s.0, vec![Square::new(0, 0), Square::new(2, 1)]);
        assert_eq!(serde_json::to_string(&s).unwrap_or_default(), "\"0,0 2,1\"");
        let c: CardList = serde_json::from_str("\"RX01,RX02\"").unwrap_or_default();
        assert_eq!(c.0, vec!["RX01".to_owned(), "RX02".to_owned()]);
    }

    #[test]
    fn virus_hits_follow_the_seed() {
        // 30/50: 20 is blocked, 30 passes, acted → defence 0.
        assert_eq!(hit_virus(20, 30, false, 0, true), None);
        assert_eq!(hit_virus(30, 30, false, 0, true), Some(30));
        assert_eq!(hit_virus(30, 30, false, 0, false), None);
        assert_eq!(hit_virus(20, 30, true, 30, true), Some(50));
    }

    #[test]
    fn order_follows_hp_then_cards() {
        assert_eq!(order_first([150, 170], [3, 2]), Some(0));
        assert_eq!(order_first([150, 150], [3, 2]), Some(1));
        assert_eq!(order_first([150, 150], [2, 2]), None);
    }
}
