// BG Stats, the play logger most players use: a game's result as a play it imports, through
// its push link (createPlay.html?data=<url-encoded JSON>, which opens its import dialog and
// can pass the play on to BoardGameGeek) or as a play file (.bgsplay). Pure functions: the
// page builds both from the answer it already shows, and nothing is kept on the server.
// The formats and their sources: docs/bg-stats.md.

export const PUSH_URL = 'https://app.bgstatsapp.com/createPlay.html';

/** The source BG Stats files the plays under. It remembers the games and players matched
 * once per source, so the name is the same in every language of the form. */
export const SOURCE_NAME = 'ボードゲーム得点計算';

/**
 * Each game as BG Stats knows it: the name it is matched by, and its BoardGameGeek id when
 * one was confirmed. None of the four could be (docs/bg-stats.md): BG Stats then suggests a
 * match by name, and the player's choice is remembered for the next play.
 */
export const GAMES = {
  apero: { name: 'Apero', bggId: null },
  pedro: { name: 'Pedro', bggId: null },
  applejack: { name: 'Applejack', bggId: null },
  'fairy-black-box': { name: 'Fairy & Black Box', bggId: null },
};

/** Ranks from the result: winners first, then by score, highest first; equal ones share a
 * rank (1, 1, 3). A row that carries its own rank (the service's) keeps it. */
function ranked(rows) {
  const ahead = (other, row) => (other.winner && !row.winner) || (other.winner === row.winner && other.score > row.score);
  return rows.map((row) => ({ ...row, rank: row.rank ?? 1 + rows.filter((other) => ahead(other, row)).length }));
}

/** An Apero total as a number: the exact text when it is a safe integer, else its nearest. */
const aperoScore = (player) => (Number.isSafeInteger(player.total) ? player.total : Number(player.total_text));

/**
 * Each game's answer (its module's lastResult()) as the play's players: name, score, winner
 * and rank, or null while there is nothing to record.
 */
export const RESULTS = {
  /** POST apero/score's answer: the players scored; the winners share the win. */
  apero(result) {
    if (!result?.players?.length) return null;
    const winners = new Set(result.winners);
    return ranked(result.players.map((p) => ({ name: p.name, score: aperoScore(p), winner: winners.has(p.name) })));
  },
  /** POST pedro/game's answer: the two teams and their scores; the winner once there is one. */
  pedro(result) {
    if (!result?.hands?.length) return null;
    return ranked(['NS', 'EW'].map((team) => ({ name: team, score: result.scores[team], winner: result.winner === team })));
  },
  /** The players' final scores ({players: [{name, total}]}, total null until scored): the
   * winners once every player of two or more is scored, as the form's ranking has them. */
  applejack(result) {
    const players = result?.players || [];
    const scored = players.filter((p) => Number.isInteger(p.total));
    if (!scored.length) return null;
    const everyone = players.length > 1 && scored.length === players.length;
    const best = Math.max(...scored.map((p) => p.total));
    return ranked(scored.map((p) => ({ name: p.name, score: p.total, winner: everyone && p.total === best })));
  },
  /** POST fairy-black-box/score's answer: the service's ranks (tie-breaks included); an
   * eliminated player scores 0 and shares the last rank. */
  'fairy-black-box'(result) {
    if (!result?.players?.length) return null;
    const winners = new Set(result.winners);
    const last = result.players.filter((p) => p.rank !== null && p.rank !== undefined).length + 1;
    return result.players.map((p) => ({
      name: p.name, score: p.eliminated ? 0 : p.score, winner: winners.has(p.name), rank: p.eliminated ? last : p.rank,
    }));
  },
};

const pad = (n) => String(n).padStart(2, '0');
/** 'yyyy-MM-dd HH:mm:ss' in UTC: the push link's playDate. */
const utcText = (d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
/** 'yyyy-MM-dd HH:mm:ss' on the device's clock: the play file's dates. */
const localText = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

/**
 * A UUID made from `text` (a 128-bit hash; version 8, "custom", of RFC 9562): the same
 * text gives the same id, so the same play sent twice is one play in BG Stats, and a
 * player or game keeps its id from play to play.
 */
export function uuidOf(text) {
  const primes = [0x01000193, 0x5bd1e995, 0x27d4eb2f, 0x165667b1];
  let lanes = [0x811c9dc5, 0x9e3779b9, 0x85ebca6b, 0xc2b2ae35];
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    lanes = lanes.map((lane, k) => Math.imul(lane ^ code, primes[k]) >>> 0);
    lanes = lanes.map((lane, k) => (lane ^ (lanes[(k + 1) % 4] >>> 7)) >>> 0);
  }
  const hex = lanes.map((lane) => {
    let x = lane;
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
    return ((x ^ (x >>> 16)) >>> 0).toString(16).padStart(8, '0');
  }).join('');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`.toUpperCase();
}

/**
 * The play BG Stats' push link carries: the game, the moment (`now`, sent in UTC as its
 * format asks; BG Stats shows it on the device's own date), and each player's score,
 * winner and rank. `rows` come from RESULTS; the start player is not known.
 */
export function play(game, rows, now = new Date()) {
  const { name, bggId } = GAMES[game];
  const day = localText(now).slice(0, 10);
  return {
    sourceName: SOURCE_NAME,
    sourcePlayId: uuidOf(JSON.stringify(['play', game, day, rows.map((row) => [row.name, row.score, row.rank])])),
    playDate: utcText(now),
    game: { name, sourceGameId: game, highestWins: true, noPoints: false, ...(bggId ? { bggId } : {}) },
    players: rows.map((row) => ({
      name: row.name, sourcePlayerId: row.name, score: row.score, winner: row.winner, rank: row.rank, startPlayer: false,
    })),
  };
}

/** The push link of `aPlay`: opens BG Stats' import dialog where it is installed. */
export const pushLink = (aPlay) => `${PUSH_URL}?data=${encodeURIComponent(JSON.stringify(aPlay))}`;

/** The moment of `aPlay` (its UTC playDate) as a Date. */
const momentOf = (aPlay) => new Date(`${aPlay.playDate.replace(' ', 'T')}Z`);

/**
 * The same play as a BG Stats play file: its collections of games, players, locations and
 * plays, joined by in-file ids (gameRefId, playerRefId) and identified by UUIDs; dates on
 * the device's clock, scores as text, as BG Stats' own files have them.
 */
export function playFile(aPlay) {
  const when = localText(momentOf(aPlay));
  return {
    games: [{
      id: 1, uuid: uuidOf(`game:${aPlay.game.sourceGameId}`), name: aPlay.game.name, bggId: aPlay.game.bggId ?? 0, bggYear: 0,
      highestWins: aPlay.game.highestWins, noPoints: aPlay.game.noPoints, cooperative: false, usesTeams: false,
      isBaseGame: true, isExpansion: false, modificationDate: when,
    }],
    players: aPlay.players.map((p, k) => ({ id: k + 1, uuid: uuidOf(`player:${p.name}`), name: p.name, isAnonymous: false, modificationDate: when })),
    locations: [],
    plays: [{
      uuid: aPlay.sourcePlayId, gameRefId: 1, playDate: when, entryDate: when, modificationDate: when,
      durationMin: 0, ignored: false, manualWinner: false, rounds: 0, scoringSetting: 0, usesTeams: false, board: '', playImages: '[]',
      playerScores: aPlay.players.map((p, k) => ({
        playerRefId: k + 1, score: String(p.score), winner: p.winner, rank: p.rank, startPlayer: p.startPlayer, newPlayer: false, seatOrder: 0,
      })),
    }],
    userInfo: { meRefId: 0 },
  };
}

/** The play file's name: the game and the play's date on the device ('apero-2026-12-07.bgsplay'). */
export const fileName = (aPlay) => `${aPlay.game.sourceGameId}-${localText(momentOf(aPlay)).slice(0, 10)}.bgsplay`;
