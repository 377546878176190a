-- tableside-club schema, version 1. Applied once by `tableside-club init` (or `serve`), in one
-- transaction, and recorded in club_migrations. Never edited once released: a change is a new
-- file 0002_….sql.

CREATE TABLE settings (
    key   text PRIMARY KEY,
    value text NOT NULL
);
-- The club's time zone: a match counts for the day (and so the season) it was started on there.
INSERT INTO settings (key, value) VALUES ('timezone', 'UTC');

-- The kiosk of the table currently in row-level checks (`SET LOCAL club.kiosk_id`), or NULL
-- outside a push. A push transaction sets it, and then rows of other kiosks can be neither
-- seen nor written, whatever the SQL says.
CREATE FUNCTION club_kiosk() RETURNS bigint
LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('club.kiosk_id', true), '')::bigint $$;

CREATE TABLE kiosks (
    id           bigserial   PRIMARY KEY,
    name         text        NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
    token_sha256 text        NOT NULL UNIQUE CHECK (token_sha256 ~ '^[0-9a-f]{64}$'),
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz
);

-- Catalogue versions by content hash, uploaded once per hash by the first kiosk that needs it.
CREATE TABLE catalogues (
    sha256      text        PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    game        text        NOT NULL,
    set_id      text        NOT NULL,
    body        text        NOT NULL,
    uploaded_by bigint      REFERENCES kiosks (id),
    uploaded_at timestamptz NOT NULL DEFAULT now()
);

-- Club members. name_key (trimmed, lower case) is what a kiosk's player name is matched by.
CREATE TABLE members (
    id         bigserial   PRIMARY KEY,
    name       text        NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    name_key   text        NOT NULL UNIQUE,
    number     text        UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A kiosk's player name, matched to a member by name the first time it is seen (`linked` =
-- false), or linked to one by hand (`tableside-club member link`, `linked` = true).
CREATE TABLE player_names (
    kiosk_id  bigint  NOT NULL REFERENCES kiosks (id),
    name      text    NOT NULL,
    member_id bigint  NOT NULL REFERENCES members (id),
    linked    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (kiosk_id, name)
);

CREATE TABLE matches (
    id               bigserial   PRIMARY KEY,
    kiosk_id         bigint      NOT NULL REFERENCES kiosks (id),
    kiosk_match      bigint      NOT NULL,
    game             text        NOT NULL,
    catalogue_sha256 text        NOT NULL REFERENCES catalogues (sha256),
    header_json      text        NOT NULL,
    created_ms       bigint      NOT NULL,
    played_on        date        NOT NULL,
    first_seen_at    timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    entry_count      integer     NOT NULL DEFAULT 0 CHECK (entry_count >= 0),
    -- The outcome as the server's own replay derived it (never taken from the kiosk).
    result           text        CHECK (result IN ('win', 'draw')),
    winner_seat      integer,
    reason           text,
    finished_at      timestamptz,
    -- Where it stands, for the live tables page.
    turn             integer,
    phase            text,
    trackers_json    text,
    UNIQUE (kiosk_id, kiosk_match),
    CHECK ((result = 'win') = (winner_seat IS NOT NULL))
);
CREATE INDEX matches_by_day ON matches (played_on, kiosk_id);
CREATE INDEX matches_updated ON matches (updated_at DESC);

CREATE TABLE match_players (
    match_id  bigint  NOT NULL REFERENCES matches (id),
    seat      integer NOT NULL CHECK (seat >= 0),
    kiosk_id  bigint  NOT NULL REFERENCES kiosks (id),
    member_id bigint  NOT NULL REFERENCES members (id),
    name      text    NOT NULL,
    deck_name text    NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_players_by_member ON match_players (member_id, match_id);

CREATE TABLE entries (
    match_id   bigint  NOT NULL REFERENCES matches (id),
    seq        integer NOT NULL CHECK (seq >= 0),
    kiosk_id   bigint  NOT NULL REFERENCES kiosks (id),
    at_ms      bigint  NOT NULL,
    input_json text    NOT NULL,
    PRIMARY KEY (match_id, seq)
);

CREATE FUNCTION entries_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'match log entries are never changed or deleted';
END $$;
CREATE TRIGGER entries_never_changed BEFORE UPDATE OR DELETE ON entries
    FOR EACH ROW EXECUTE FUNCTION entries_are_final();

-- Row-level checks: while club.kiosk_id is set (a push), only that kiosk's rows exist.
ALTER TABLE matches ENABLE ROW LEVEL SECURITY;
ALTER TABLE matches FORCE ROW LEVEL SECURITY;
CREATE POLICY own_kiosk ON matches
    USING (club_kiosk() IS NULL OR kiosk_id = club_kiosk())
    WITH CHECK (club_kiosk() IS NULL OR kiosk_id = club_kiosk());
ALTER TABLE entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE entries FORCE ROW LEVEL SECURITY;
CREATE POLICY own_kiosk ON entries
    USING (club_kiosk() IS NULL OR kiosk_id = club_kiosk())
    WITH CHECK (club_kiosk() IS NULL OR kiosk_id = club_kiosk());
ALTER TABLE match_players ENABLE ROW LEVEL SECURITY;
ALTER TABLE match_players FORCE ROW LEVEL SECURITY;
CREATE POLICY own_kiosk ON match_players
    USING (club_kiosk() IS NULL OR kiosk_id = club_kiosk())
    WITH CHECK (club_kiosk() IS NULL OR kiosk_id = club_kiosk());

-- Every refused request, with its reason in English and Japanese (the API's log).
CREATE TABLE refusals (
    id          bigserial   PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT now(),
    kiosk_id    bigint      REFERENCES kiosks (id),
    kiosk_match bigint,
    seq         bigint,
    code        text        NOT NULL,
    reason      text        NOT NULL,
    reason_ja   text        NOT NULL
);

CREATE TABLE seasons (
    id        bigserial PRIMARY KEY CHECK (id > 0),
    name      text      NOT NULL UNIQUE,
    starts_on date      NOT NULL,
    ends_on   date      NOT NULL CHECK (ends_on >= starts_on)
);

-- The history screen's statistics, club-wide: per season (0: all time), game, member and deck,
-- kept up to date in the push transaction (a match's old result is taken out of every season
-- its day falls in, its new one put in), so a season's standings read a few hundred rows.
CREATE TABLE season_stats (
    season_id bigint  NOT NULL,
    game      text    NOT NULL,
    member_id bigint  NOT NULL REFERENCES members (id),
    deck_name text    NOT NULL,
    played    integer NOT NULL CHECK (played >= 0),
    won       integer NOT NULL CHECK (won >= 0),
    drawn     integer NOT NULL CHECK (drawn >= 0),
    PRIMARY KEY (season_id, game, member_id, deck_name)
);
CREATE INDEX season_stats_by_member ON season_stats (member_id, season_id);

-- Finished matches (and draws) per day, game and kiosk, kept in the push transaction like
-- season_stats, so a season's matches per game read a row per day, game and kiosk instead of
-- every match. One row per kiosk: kiosks finishing matches at once never wait for each other.
CREATE TABLE game_days (
    played_on date    NOT NULL,
    game      text    NOT NULL,
    kiosk_id  bigint  NOT NULL REFERENCES kiosks (id),
    finished  integer NOT NULL CHECK (finished >= 0),
    drawn     integer NOT NULL CHECK (drawn >= 0 AND drawn <= finished),
    PRIMARY KEY (played_on, game, kiosk_id)
);

-- Club nights: Swiss rounds of one game.
CREATE TABLE events (
    id         bigserial   PRIMARY KEY,
    name       text        NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    game       text        NOT NULL,
    rounds     integer     NOT NULL CHECK (rounds BETWEEN 1 AND 20),
    held_on    date        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE event_players (
    event_id  bigint NOT NULL REFERENCES events (id),
    member_id bigint NOT NULL REFERENCES members (id),
    PRIMARY KEY (event_id, member_id)
);

-- The event's tables, in order: table n is played at kiosk n.
CREATE TABLE event_tables (
    event_id bigint  NOT NULL REFERENCES events (id),
    table_no integer NOT NULL CHECK (table_no >= 1),
    kiosk_id bigint  NOT NULL REFERENCES kiosks (id),
    PRIMARY KEY (event_id, table_no),
    UNIQUE (event_id, kiosk_id)
);

CREATE TABLE rounds (
    event_id     bigint      NOT NULL REFERENCES events (id),
    round        integer     NOT NULL CHECK (round >= 1),
    published_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, round)
);

-- One pairing per table of a round; player_b NULL is a bye. A result comes from the finished
-- match between the two (match_id), or is entered by hand (manual: 'a', 'b' or 'draw').
CREATE TABLE pairings (
    event_id bigint  NOT NULL,
    round    integer NOT NULL,
    table_no integer NOT NULL CHECK (table_no >= 1),
    player_a bigint  NOT NULL REFERENCES members (id),
    player_b bigint  REFERENCES members (id),
    match_id bigint  REFERENCES matches (id),
    manual   text    CHECK (manual IN ('a', 'b', 'draw')),
    PRIMARY KEY (event_id, round, table_no),
    FOREIGN KEY (event_id, round) REFERENCES rounds (event_id, round)
);
