//! Jaken's state: the house rules, the battle's steps, each player's SB, cards and zones, and
//! the moves and events of a match.

use crate::catalogue::{JakenCard, JakenMonster, Wind};
use crate::core::{Impossible, Seat, Violation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Soul balls each player starts with.
pub const START_SB: i32 = 10;
/// Cards drawn at setup.
pub const START_HAND: i32 = 5;
/// Cards in a deck.
pub const DECK_SIZE: usize = 15;
/// Battles in a match.
pub const BATTLES: u32 = 10;
/// Copies allowed per card name.
pub const MAX_COPIES: usize = 2;

/// The marker type of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jaken;

/// How the two strikes of a battle are settled (rules digest §10 #2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Settlement {
    /// Both strikes are added up and settled as one net transfer (default).
    #[default]
    Net,
    /// The parent's strike is settled first; if a player reaches 0 the child's strike is not.
    ParentFirst,
}

/// House rules: the gaps of `rules/jaken.md` §10 that players could settle differently.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// §10 #2: how the two strikes are settled.
    pub settlement: Settlement,
    /// §10 #12: both players also draw in battle 1 (5 + 10 = 15 cards).
    pub draw_in_battle_1: bool,
    /// §10 #11: ATK and DEF below 0 after effects count as 0.
    pub clamp_negative: bool,
    /// §10 #9: a BG may be used several times in one battle, within its limit.
    pub bg_multiple_uses_per_battle: bool,
    /// §10 #8: a BG stays in the zone across battles until its uses run out (otherwise it goes to
    /// the trash at the battle end).
    pub bg_stays_until_exhausted: bool,
    /// The child uses a BG's effect only in a battle in which the parent declared a BG (the
    /// seed's BG発動条件: the child's BG is a counter, placed "when the parent placed a BG
    /// card"); `false` lets the child use a BG left from an earlier battle at any time.
    pub child_bg_after_parent_declaration: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            settlement: Settlement::Net,
            draw_in_battle_1: true,
            clamp_negative: true,
            bg_multiple_uses_per_battle: true,
            bg_stays_until_exhausted: true,
            child_bg_after_parent_declaration: true,
        }
    }
}

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Setup: janken decides the first parent.
    Janken,
    /// P3: the parent may declare a BG card.
    ParentBg,
    /// P4: the child may counter with a BG card (only after the parent declared one).
    ChildCounter,
    /// P5: both place a monster face down.
    FaceDown,
    /// B1: both reveal.
    Reveal,
    /// B2: effects resolve, parent first.
    Effects,
    /// B4: compare ATK/DEF and move SB.
    Compare,
    /// E1: the parent hands the OB over.
    BattleEnd,
    /// The match is over.
    Over,
}

impl Step {
    /// True from P3 until just before the SB comparison: the "strategy phase" (戦略フェーズ) in
    /// which BG uses may be declared (rules digest §10 #7).
    pub fn is_strategy_phase(self) -> bool {
        matches!(
            self,
            Step::ParentBg
                | Step::ChildCounter
                | Step::FaceDown
                | Step::Reveal
                | Step::Effects
                | Step::Compare
        )
    }
}

/// What a player has on the battle field this battle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", content = "card", rename_all = "kebab-case")]
pub enum Placement {
    /// Nothing yet.
    #[default]
    Empty,
    /// A monster face down.
    FaceDown,
    /// No legal card: counts as ATK 0 / DEF 0 with no effect (§10 #5).
    NoMonster,
    /// The revealed monster's card id.
    Revealed(String),
}

/// A BG card in a player's BG zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgZone {
    /// Card id.
    pub card: String,
    /// Uses left before it is turned face down.
    pub uses_left: u8,
    /// False once exhausted (turned face down).
    pub face_up: bool,
    /// Uses declared this battle.
    pub uses_this_battle: u8,
}

/// One player's side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The name at the table.
    pub name: String,
    /// Soul balls (魂玉).
    pub sb: i32,
    /// Cards in hand.
    pub hand: i32,
    /// Cards in the deck.
    pub deck: i32,
    /// Card ids not yet played (deck and hand together), sorted.
    pub unplayed: Vec<String>,
    /// Card ids in the trash, in order.
    pub trash: Vec<String>,
    /// The BG zone.
    pub bg: Option<BgZone>,
    /// The battle field.
    pub placement: Placement,
    /// ATK change this battle from effects.
    pub atk_mod: i32,
    /// DEF change this battle from effects.
    pub def_mod: i32,
    /// ATK change this battle from BG uses (applies only to the BG's tribe).
    pub bg_atk: i32,
    /// DEF change this battle from BG uses (applies only to the BG's tribe).
    pub bg_def: i32,
}

/// The last battle's result, for the table screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeReport {
    /// Battle number.
    pub battle: u32,
    /// Effective (ATK, DEF) of each seat.
    pub values: [(i32, i32); 2],
    /// SB each seat gained (negative: paid) from its own strike.
    pub strikes: [i32; 2],
    /// SB actually moved to each seat (after the cap).
    pub moved: [i32; 2],
    /// Notes, e.g. a BG bonus that did not apply.
    pub notes: Vec<String>,
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
    /// NM/EM or BG data.
    pub data: JakenCard,
}

impl CardInfo {
    pub(super) fn label(&self) -> String {
        format!("{} ({})", self.name_ja, self.name_en)
    }
    /// The card's name in a Japanese sentence.
    pub(super) fn label_ja(&self) -> String {
        self.name_ja.clone()
    }
}

/// The whole state of a Jaken match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// House rules.
    pub rules: Rules,
    /// The two players.
    pub players: [PlayerState; 2],
    /// Card data by id (shared: it never changes during a match).
    pub cards: Arc<BTreeMap<String, CardInfo>>,
    /// Battle number, 1..=10 (0 before the first parent is chosen).
    pub turn: u32,
    /// The parent (親, OB holder).
    pub parent: Option<Seat>,
    /// Current step.
    pub step: Step,
    /// True once the parent declared a BG this battle.
    pub parent_declared_bg: bool,
    /// Effects still to resolve this battle, in order.
    pub pending_effects: Vec<Seat>,
    /// The last battle's result.
    pub last_strike: Option<StrikeReport>,
}

/// A move at the Jaken table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Move {
    /// Setup: the janken winner becomes the first parent.
    FirstParent {
        /// The winner.
        player: Seat,
    },
    /// P3/P4: declare a BG card from hand and place it in the BG zone.
    DeclareBg {
        /// Who declares.
        player: Seat,
        /// The BG card id.
        card: String,
    },
    /// P3/P4: declare no BG.
    PassBg {
        /// Who passes.
        player: Seat,
    },
    /// P5: place a monster face down.
    FaceDown {
        /// Who places.
        player: Seat,
    },
    /// P5: no card in hand can be summoned; play nothing (ATK 0 / DEF 0).
    NoMonster {
        /// Who plays nothing.
        player: Seat,
    },
    /// B1: turn the face-down monster over.
    Reveal {
        /// Whose monster.
        player: Seat,
        /// Its card id.
        card: String,
    },
    /// B2: the players resolved this player's effect; enter its result.
    Effect {
        /// Whose effect.
        player: Seat,
        /// Change to the player's own ATK.
        #[serde(default)]
        atk: i32,
        /// Change to the player's own DEF.
        #[serde(default)]
        def: i32,
        /// Change to the opponent's ATK.
        #[serde(default)]
        opp_atk: i32,
        /// Change to the opponent's DEF.
        #[serde(default)]
        opp_def: i32,
        /// SB the player takes from the opponent (negative: gives).
        #[serde(default)]
        sb: i32,
        /// What the effect did, in the players' words.
        #[serde(default)]
        note: String,
    },
    /// B2: the effect's printed condition is not met; it does nothing.
    NoEffect {
        /// Whose effect.
        player: Seat,
    },
    /// B3: declare uses of one's BG ("BG effect! (uses 1) this monster +1 ATK").
    UseBg {
        /// Whose BG.
        player: Seat,
        /// Uses spent.
        uses: u8,
        /// ATK change for the player's monster (only for the BG's tribe).
        #[serde(default)]
        atk: i32,
        /// DEF change for the player's monster (only for the BG's tribe).
        #[serde(default)]
        def: i32,
    },
    /// B4/B5: compare ATK/DEF, move SB, send both monsters to the trash.
    Compare {},
    /// E1: the parent hands the OB over; the next battle begins (or the match ends after 10).
    EndBattle {},
}

/// One change of a Jaken state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The parent is now this seat.
    ParentIs(Seat),
    /// A new battle begins: per-battle values reset.
    BattleBegan(u32),
    /// A player drew a card.
    Drew(Seat),
    /// The match moves to a step.
    StepTo(Step),
    /// A BG card was placed (an exhausted BG in the zone goes to the trash).
    BgPlaced(Seat, String),
    /// The parent declared a BG this battle.
    ParentDeclaredBg,
    /// A monster was placed (true) or the player plays nothing (false).
    Placed(Seat, bool),
    /// A monster was revealed.
    Revealed(Seat, String),
    /// The effects to resolve, in order.
    EffectsPending(Vec<Seat>),
    /// One effect was resolved: changes to (own ATK, own DEF) and (opponent ATK, opponent DEF).
    EffectResolved(Seat, [i32; 4]),
    /// SB moved from one seat to the other.
    SbMoved {
        /// Payer.
        from: Seat,
        /// Receiver.
        to: Seat,
        /// How many.
        amount: i32,
    },
    /// A BG was used: uses spent, ATK and DEF changes.
    BgUsed(Seat, u8, i32, i32),
    /// A BG was turned face down (uses exhausted).
    BgFlipped(Seat),
    /// A BG went to the trash.
    BgDiscarded(Seat),
    /// The battle's result.
    Struck(StrikeReport),
    /// The monster on the field went to the trash.
    Trashed(Seat),
    /// Manual: set SB.
    SetSb(Seat, i32),
    /// Manual: set hand size.
    SetHand(Seat, i32),
    /// Manual: set deck size.
    SetDeck(Seat, i32),
    /// Manual: set ATK and DEF changes.
    SetMods(Seat, i32, i32),
    /// Manual: set BG uses left.
    SetBgUses(Seat, u8),
    /// Manual: set the battle number.
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
            Impossible::new(format!("Jaken has seats 0 and 1, not {seat}"))
                .ja(format!("ジャケンの席は0と1です（{seat}ではありません）")),
        )
    }
}

/// Largest change one effect may enter for a number (ATK, DEF or SB).
pub const MAX_CHANGE: i32 = 99;

pub(super) fn check_change(values: &[i32]) -> Result<(), Impossible> {
    match values
        .iter()
        .find(|v| v.unsigned_abs() > MAX_CHANGE.unsigned_abs())
    {
        Some(v) => Err(
            Impossible::new(format!("a change of {v} is outside ±{MAX_CHANGE}"))
                .ja(format!("{v}の変化は±{MAX_CHANGE}の範囲外です")),
        ),
        None => Ok(()),
    }
}

impl State {
    pub(super) fn card(&self, id: &str) -> Result<&CardInfo, Impossible> {
        self.cards.get(id).ok_or_else(|| {
            Impossible::new(format!("card `{id}` is in neither player's deck")).ja(format!(
                "カード `{id}` はどちらのプレイヤーのデッキにもありません"
            ))
        })
    }

    pub(super) fn monster(&self, id: &str) -> Option<&JakenMonster> {
        match self.cards.get(id).map(|c| &c.data) {
            Some(JakenCard::Monster(m)) => Some(m),
            _ => None,
        }
    }

    /// A card's name and English name, or its id when the catalogue lacks it.
    pub(super) fn label(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label)
    }

    /// A card's name for a Japanese sentence, or its id.
    pub(super) fn label_ja(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label_ja)
    }

    pub(super) fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("?", |p| p.name.as_str())
    }

    pub(super) fn revealed(&self, seat: Seat) -> Option<(&str, &JakenMonster)> {
        match &self.players.get(seat)?.placement {
            Placement::Revealed(id) => self.monster(id).map(|m| (id.as_str(), m)),
            _ => None,
        }
    }

    /// Whether the seat's EM effect works this battle under its wind condition.
    pub fn wind_allows(&self, seat: Seat, wind: Wind) -> bool {
        let is_parent = self.parent == Some(seat);
        match wind {
            Wind::Jicha => is_parent,
            Wind::Tacha => !is_parent,
            Wind::Ryancha => true,
        }
    }

    /// Effective (ATK, DEF) of a seat's monster this battle, and notes on BG bonuses not applied.
    pub fn effective(&self, seat: Seat) -> ((i32, i32), Option<String>) {
        let Some(p) = self.players.get(seat) else {
            return ((0, 0), None);
        };
        let Some((_, m)) = self.revealed(seat) else {
            return ((0, 0), None);
        };
        let mut atk = m.atk + p.atk_mod;
        let mut def = m.def + p.def_mod;
        let mut note = None;
        if p.bg_atk != 0 || p.bg_def != 0 {
            let tribe_ok =
                p.bg.as_ref()
                    .and_then(|bg| match self.cards.get(&bg.card).map(|c| &c.data) {
                        Some(JakenCard::BattleGround(b)) => Some(b.target_tribe == m.tribe),
                        _ => None,
                    })
                    .unwrap_or(false);
            if tribe_ok {
                atk += p.bg_atk;
                def += p.bg_def;
            } else {
                note = Some(format!(
                    "{}'s BG bonus does not apply: the BG works only for its own tribe, not {}",
                    p.name, m.tribe
                ));
            }
        }
        if self.rules.clamp_negative {
            atk = atk.max(0);
            def = def.max(0);
        }
        ((atk, def), note)
    }
}

/// [`step_text`] in Japanese, by the seed's names of the battle sequence (バトルシークエンス:
/// ❶ バトルプランフェイズ(作戦), ❷ バトルフェイズ(決戦), ❸ バトルエンド(終決)); the digest's step
/// numbers (P3, B1 …) are not the rulebook's and stay in the English text.
pub(super) fn step_text_ja(state: &State) -> String {
    let b = state.turn;
    match state.step {
        Step::Janken => "ゲームの準備：ジャンケンで最初の親を決める".into(),
        Step::ParentBg => format!("バトル{b} バトルプランフェイズ(作戦)：親のBG宣言"),
        Step::ChildCounter => format!("バトル{b} バトルプランフェイズ(作戦)：子のカウンター"),
        Step::FaceDown => {
            format!("バトル{b} バトルプランフェイズ(作戦)：両者がカードを裏向きに配置")
        }
        Step::Reveal => format!("バトル{b} バトルフェイズ(決戦)：両者が表向きにする"),
        Step::Effects => format!("バトル{b} バトルフェイズ(決戦)：効果の発動（親から）"),
        Step::Compare => {
            format!("バトル{b} バトルフェイズ(決戦)：攻撃力・守備力を比べてSBを移動")
        }
        Step::BattleEnd => format!("バトル{b} バトルエンド(終決)：親交代"),
        Step::Over => "対戦終了".into(),
    }
}

/// The seed's sentence of placing the monsters face down (❶ バトルプランフェイズ).
pub(super) const REF_FACE_DOWN: &str = "バトルシークエンス ❶ バトルプランフェイズ(作戦)「■ 両プレイヤーはターンカウント内で使用できるカードを「バトルフィールド」に裏向きに配置。」";
/// The seed's sentence of revealing (❷ バトルフェイズ).
pub(super) const REF_REVEAL: &str = "バトルシークエンス ❷ バトルフェイズ(決戦)「■ 両プレイヤーは、合図と同時に表向きにカードを表示する。」";
/// The seed's sentence of the effects (❷ バトルフェイズ).
pub(super) const REF_EFFECTS: &str = "バトルシークエンス ❷ バトルフェイズ(決戦)「■ 両プレイヤー、発動条件を満たした効果カードの場合、親から効果を発動させる。」";
/// The seed's sentence of a BG's use limit and timing (■ BG発動条件 ● 効果回数制限).
pub(super) const REF_BG_LIMIT: &str = "■ BG発動条件 ● 効果回数制限「★ 各BGカードには効果の使用回数の制限がある。」「BGの発動は、回数制限内であれば戦略フェーズ中の好きなタイミングで使用可能。」";
/// The seed's sentence of the parent's BG declaration (■ BG発動条件 ● BGカードの配置).
pub(super) const REF_BG_PARENT: &str = "■ BG発動条件 ● BGカードの配置「★ 自分が親の場合 ：バトルプランフェーズで、手札からBGカードを宣言と共にBGゾーンに配置可能。」";
/// The seed's sentence of the child's counter (■ BG発動条件 ● BGカードの配置).
pub(super) const REF_BG_CHILD: &str = "■ BG発動条件 ● BGカードの配置「★ 相手が親の場合 ： 親がBGカードをBGゾーンに配置したとき、手札にBGカードがあればカウンターとしてBGゾーンに配置可能。」";
/// The seed's sentence that effects go parent first (⑥ 効果内容).
pub(super) const REF_PARENT_FIRST: &str = "⑥ 効果内容「● 効果は必ず親(OB所有)から発動となる。」";
/// The house rules' reference: the rulebook says nothing of it.
pub(super) const HOUSE_RULE: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";

/// A move made at a step it does not belong to (`jaken.phase-order`): what was done and when it
/// belongs, in English and Japanese (`[en, ja]`), and the seed's sentence of that step.
pub(super) fn wrong_step(
    state: &State,
    what: [&str; 2],
    when: [&str; 2],
    reference: &str,
) -> Violation {
    Violation::wrong_phase(
        "jaken.phase-order",
        reference,
        [what[0], when[0], &step_text(state)],
        [what[1], when[1], &step_text_ja(state)],
    )
}

pub(super) fn step_text(state: &State) -> String {
    match state.step {
        Step::Janken => "setup: janken for the first parent".into(),
        Step::ParentBg => format!("battle {} P3: the parent may declare a BG", state.turn),
        Step::ChildCounter => format!("battle {} P4: the child may counter with a BG", state.turn),
        Step::FaceDown => format!("battle {} P5: both place a monster face down", state.turn),
        Step::Reveal => format!("battle {} B1: both reveal", state.turn),
        Step::Effects => format!("battle {} B2: effects resolve, parent first", state.turn),
        Step::Compare => format!("battle {} B4: compare ATK/DEF and move SB", state.turn),
        Step::BattleEnd => format!("battle {} end: the parent hands over the OB", state.turn),
        Step::Over => "the end of the match".into(),
    }
}
