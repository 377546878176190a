//! Rockman EXE's state: the house rules (Lv1–Lv3), the turn's phases, each player's 3×3 area,
//! HP gauge, chip zone and piles, and the moves and events of a match.

use super::card::{RockmanCard, max_level};
use crate::core::{Impossible, Seat, Violation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The HP gauge each player starts with (digest §2, review R1).
pub const START_HP: i32 = super::card::START_HP;
/// Cards in a deck, the opening navi included.
pub const DECK_SIZE: usize = super::card::DECK_SIZE;
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

pub(super) const REF_SEED: &str = "ロックマンエグゼカードゲーム / ルール";

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

pub(super) use crate::core::ListForm;

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

pub use crate::core::CardList;

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

pub(super) fn index(sq: Square, cols: u8, len: usize) -> Option<usize> {
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
    pub(super) fn label(&self) -> String {
        format!("{} ({})", self.name_ja, self.name_en)
    }

    /// The card's name in a Japanese sentence: its Japanese name (the English one where the
    /// catalogue gives none).
    pub(super) fn label_ja(&self) -> String {
        if self.name_ja.is_empty() {
            self.name_en.clone()
        } else {
            self.name_ja.clone()
        }
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
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
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
    EndEffects {},
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

pub(super) fn squares_empty(s: &Squares) -> bool {
    s.0.is_empty()
}
pub(super) fn cards_empty(s: &CardList) -> bool {
    s.0.is_empty()
}
pub(super) fn is_zero(v: &i32) -> bool {
    *v == 0
}
pub(super) fn is_false(v: &bool) -> bool {
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

pub(super) fn other(seat: Seat) -> Seat {
    1 - seat
}

pub(super) fn check_seat(seat: Seat) -> Result<(), Impossible> {
    if seat < 2 {
        Ok(())
    } else {
        Err(
            Impossible::new(format!("Rockman EXE has seats 0 and 1, not {seat}")).ja(format!(
                "ロックマンエグゼの席は0と1です。{seat} ではありません。"
            )),
        )
    }
}

/// The rulebook's words for a digest section like `§3 TRANSFER`: the seed's own sentence
/// that states the rule, in 「」 after the seed's title; a gap of the rulebook (`§10 …`) or a
/// section the seed does not cover is a house rule.
pub(super) fn reference(section: &str) -> String {
    if section.contains("§10") {
        return REF_HOUSE.to_owned();
    }
    let words = match section {
        "§3 TRANSFER" => {
            "転送「まず先攻プレイヤーがカードを置き、次に後攻プレイヤーが置こう。１回に、キャラ（ナビかウイルス）を１枚まで、チップを１枚まで置けるぞ。」"
        }
        "§3 TRANSFER places" => {
            "転送「キャラ　エリアの空いてるマスに、オモテ向きで置く」「チップ　チップ置き場に、ウラ向きで置く」"
        }
        "§3 BATTLE" => {
            "バトル「先攻と後攻が１アクションずつ、かわりばんこにアクションを行なう。」"
        }
        "§3 BATTLE A" => {
            "Ａ・エリアのカードの移動「手札を１枚すて、自分のカード１枚を、上下左右１マス移動させる。 ※ ナナメには移動できない・相手のエリアには移動できない」"
        }
        "§3 BATTLE B" => {
            "Ｂ・エリアのカードで攻撃「自分のカード１枚の、カードに書かれた効果を使う。攻撃したカードは行動済みになり、それ以上攻撃できない。」"
        }
        "§3 BATTLE C" => {
            "Ｃ・チップ置き場のチップカードを使う「チップ置き場のチップカード１枚の効果を使う。使ったチップは、捨札にする。」"
        }
        "§3 BATTLE D" => {
            "Ｄ・バトラーカードを使う「手札のバトラーカードを１枚使う。使ったカードは捨札にする。」"
        }
        "§3 END (3)" => {
            "エンドフェイズ「(３) 手札からいらないカードを捨てて、５枚になるよう山札から引く（交換は１回のみ）。」"
        }
        "§3 ORDER" => {
            "先攻後攻「※一番最初のターンは、じゃんけんで決めよう」「(３) (２)も同じなら、じゃんけんで勝ったほうが先攻」"
        }
        "§8 Lv1" => {
            "Lv１-チップの使用制限「自分のＨＰゲージのポイントによって、バトルフェイズで使用できるチップに制限をつけてみよう」"
        }
        "§8 Lv2 virus" => {
            "Lv２-ウイルスの転送制限「自分のＨＰゲージのポイントによって、転送フェイズに置けるウイルスに制限をつけてみよう」"
        }
        "§8 Lv2" => {
            "Lv２-ウイルスの進化「レベルアップ前のウイルスを捨て札にして、同じ場所にレベルアップ後のウイルスを置こう（レベルアップできるカードはカードに書いてあります）。」"
        }
        "§8 Lv3" => {
            "Lv３-スタイルカード「転送フェイズに、自分の手札から１枚だけ、ナビにスタイルカードをつけることができる。」"
        }
        _ => {
            "ゲームの流れ「この５つのフェイズを１ターンとして繰り返し相手のＨＰゲージを０にすれば勝利だ！」"
        }
    };
    format!("{words} ({REF_SEED})")
}

/// Where a house rule is written: nowhere in the rulebook (the window shows it as a house rule).
pub(super) const REF_HOUSE: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";

pub(super) fn rule(id: &str, sentence: impl Into<String>, section: &str) -> Violation {
    Violation::new(&format!("rockman-exe.{id}"), sentence, &reference(section))
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
    pub(super) fn area_len(&self) -> usize {
        usize::from(self.cols()) * usize::from(self.rows())
    }
    /// The card on a player's square, if any.
    pub fn at(&self, seat: Seat, sq: Square) -> Option<&AreaCard> {
        let i = index(sq, self.cols(), self.area_len())?;
        self.players.get(seat)?.area.get(i)?.as_ref()
    }
    pub(super) fn at_mut(&mut self, seat: Seat, sq: Square) -> Option<&mut Option<AreaCard>> {
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
    pub(super) fn card(&self, id: &str) -> Result<&CardInfo, Impossible> {
        self.cards.get(id).ok_or_else(|| {
            Impossible::new(format!("card `{id}` is in neither player's deck")).ja(format!(
                "カード `{id}` はどちらのプレイヤーのデッキにもありません。"
            ))
        })
    }
    pub(super) fn label(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label)
    }
    /// The card's name in a Japanese sentence ([`CardInfo::label_ja`]).
    pub(super) fn label_ja(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label_ja)
    }
    pub(super) fn name(&self, seat: Seat) -> &str {
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
    pub(super) fn has_unplayed(&self, seat: Seat, card: &str) -> bool {
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
    pub(super) fn hp_after(&self, seat: Seat, delta: i32) -> i32 {
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

pub(super) fn step_text(state: &State) -> String {
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

/// [`step_text`] in Japanese (the window's step line).
pub fn step_text_ja(state: &State) -> String {
    let t = state.turn;
    let name = |s: Option<Seat>| s.map(|s| state.name(s).to_owned()).unwrap_or_default();
    match state.step {
        Step::OpeningNavi => "準備：最初のナビを中央のマスに置く".into(),
        Step::Janken => format!("ターン{t} 先攻後攻：ジャンケンで先攻を決める"),
        Step::TransferFirst => format!("ターン{t} 転送フェイズ：{}（先攻）", name(state.first)),
        Step::TransferSecond => format!("ターン{t} 転送フェイズ：{}（後攻）", name(state.second())),
        Step::Battle => format!("ターン{t} バトルフェイズ：{} の行動", name(state.active)),
        Step::EndEffects => format!("ターン{t} エンドフェイズ (1)：効果の処理"),
        Step::Exchange => format!("ターン{t} エンドフェイズ (3)：捨てて{HAND_SIZE}枚まで引く"),
    }
}

/// The Japanese of the fixed phrases [`wrong_phase`] is called with ("" for another phrase).
fn phrase_ja(en: &str) -> &'static str {
    match en {
        "Placing cards" => "カードの配置",
        "the transfer phase" => "転送フェイズ",
        "the battle phase" => "バトルフェイズ",
        "A move (action A)" => "移動（アクションＡ）",
        "A pass" => "パス",
        "An attack (action B)" => "攻撃（アクションＢ）",
        "Playing a battler (action D)" => "バトラーの登場（アクションＤ）",
        "Using a chip (action C)" => "チップの使用（アクションＣ）",
        "Placing the opening navi" => "最初のナビの配置",
        "setup, before turn 1" => "準備（最初のターンの前）",
        "Ending a transfer" => "転送の終了",
        "Finishing the end-phase effects" => "エンドフェイズの効果の処理の終了",
        "end (1)" => "エンドフェイズ (1)",
        "The exchange" => "交換",
        "end (3), after the end-phase effects" => "エンドフェイズ (3)（効果の処理の後）",
        _ => "",
    }
}

pub(super) fn wrong_phase(state: &State, what: &str, when: &str) -> Violation {
    Violation::wrong_phase(
        "rockman-exe.phase-order",
        &reference("§3"),
        [what, when, &step_text(state)],
        [phrase_ja(what), phrase_ja(when), &step_text_ja(state)],
    )
}

pub(super) fn take_unplayed(state: &mut State, seat: Seat, card: &str) {
    if let Some(p) = state.players.get_mut(seat)
        && let Ok(i) = p.unplayed.binary_search_by(|c| c.as_str().cmp(card))
    {
        p.unplayed.remove(i);
    }
}
