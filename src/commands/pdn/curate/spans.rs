//! The games of a PDN file with the bytes each takes in it, read as a stream, and the
//! copying of those bytes to another file.

use crate::pdn::{Encoding, GameError, Games, PdnGame};
use crate::store::StoreError;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// One game of a file and where its text lies: from its first tag (or move) up to
/// the next game's, what lies between them included.
#[derive(Debug)]
pub(crate) struct Spanned {
    /// Its number in the file, from 1.
    pub(crate) number: usize,
    /// Its first byte's offset in the file.
    pub(crate) start: u64,
    /// The offset just after its last byte.
    pub(crate) end: u64,
    /// The game as it reads.
    pub(crate) game: Result<PdnGame, GameError>,
}

/// The games of a file, each with its span, one at a time: the reader reads one game
/// ahead, to know where the one handed out ends.
pub(crate) struct Spans {
    /// The file's games.
    games: Games<'static>,
    /// How far the file is read.
    extent: u64,
    /// The next game, read ahead: its number, start and game.
    ahead: Option<(usize, u64, Result<PdnGame, GameError>)>,
    /// Games read so far.
    read: usize,
}

impl Spans {
    /// The spans of `games`, a file read as far as `extent`, none read yet.
    fn new(games: Games<'static>, extent: u64) -> Spans {
        Spans {
            games,
            extent,
            ahead: None,
            read: 0,
        }
    }

    /// The file's first game, read ahead and still to be handed out by `next` (`None`:
    /// the file holds none). Only asked before any game is handed out.
    pub(crate) fn first(&mut self) -> Option<&Result<PdnGame, GameError>> {
        if self.read == 0 {
            self.ahead = self.read_one();
        }
        self.ahead.as_ref().map(|(_, _, game)| game)
    }

    /// Reads the next game of the file, numbered, with where it starts.
    fn read_one(&mut self) -> Option<(usize, u64, Result<PdnGame, GameError>)> {
        let game = self.games.next()?;
        self.read += 1;
        let start = self.games.last_place().map_or(0, |p| p.offset);
        Some((self.read, start, game))
    }
}

impl Iterator for Spans {
    type Item = Spanned;

    fn next(&mut self) -> Option<Spanned> {
        let (number, start, game) = match self.ahead.take() {
            Some(ahead) => ahead,
            None => self.read_one()?,
        };
        self.ahead = self.read_one();
        let end = self.ahead.as_ref().map_or(self.extent, |(_, s, _)| *s);
        Some(Spanned {
            number,
            start,
            end: end.max(start),
            game,
        })
    }
}

/// Where the bytes of a file's games are read from to be copied: the file, opened
/// again, or standard input's bytes as they were read.
trait Bytes: Read + Seek {}

impl<T: Read + Seek> Bytes for T {}

/// A PDN file opened to be read as games with their spans, and again to copy them.
pub(crate) struct SpannedFile {
    /// The file's path as messages name it (`standard input` for `-`).
    pub(crate) path: PathBuf,
    /// Its encoding.
    pub(crate) encoding: Encoding,
    /// Its games.
    pub(crate) spans: Spans,
    /// The file again, read for the bytes of the games copied.
    bytes: Box<dyn Bytes>,
    /// Where `bytes` stands.
    at: u64,
}

impl SpannedFile {
    /// The file named `path` as messages name it, its games' `spans`, and its `bytes`
    /// read again from the start for the games copied.
    fn over(path: PathBuf, encoding: Encoding, spans: Spans, bytes: Box<dyn Bytes>) -> Self {
        SpannedFile {
            path,
            encoding,
            spans,
            bytes,
            at: 0,
        }
    }

    /// Opens the PDN file at `path` (a regular file, or `-`: standard input, read
    /// whole first, as it cannot be read twice).
    pub(crate) fn open(path: &Path) -> Result<SpannedFile, StoreError> {
        if crate::store::is_stdin(path) {
            let (bytes, encoding) = crate::store::stdin_bytes()?;
            let extent = bytes.len() as u64;
            let games = crate::pdn::games_in(io::Cursor::new(bytes.clone()), encoding);
            return Ok(SpannedFile::over(
                crate::store::shown_path(path),
                encoding,
                Spans::new(games, extent),
                Box::new(io::Cursor::new(bytes)),
            ));
        }
        let (games, extent, encoding) = crate::store::file_games_measured(path)?;
        let again =
            std::fs::File::open(path).map_err(|e| StoreError::Read(path.to_path_buf(), e))?;
        Ok(SpannedFile::over(
            path.to_path_buf(),
            encoding,
            Spans::new(games, extent),
            Box::new(BufReader::with_capacity(1 << 16, again)),
        ))
    }

    /// Copies the bytes from `start` to `end` of the file to `out` (Latin-1 text as
    /// UTF-8 when `to_utf8`), and returns its last two bytes as written (for the
    /// separation from what follows).
    pub(crate) fn copy(
        &mut self,
        start: u64,
        end: u64,
        to_utf8: bool,
        out: &mut impl Write,
    ) -> Result<[u8; 2], CopyError> {
        if self.at != start {
            self.bytes
                .seek(SeekFrom::Start(start))
                .map_err(CopyError::Reading)?;
            self.at = start;
        }
        let mut left = end.saturating_sub(start);
        let mut tail = [b'\n', b'\n'];
        let mut block = [0u8; 1 << 14];
        let mut wide = Vec::new();
        while left > 0 {
            let want = usize::try_from(left.min(block.len() as u64)).unwrap_or(block.len());
            let got = self
                .bytes
                .read(&mut block[..want])
                .map_err(CopyError::Reading)?;
            if got == 0 {
                // The file was cut short since it was measured.
                return Err(CopyError::Reading(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the file got shorter while it was read",
                )));
            }
            let chunk = &block[..got];
            if to_utf8 && self.encoding == Encoding::Latin1 {
                wide.clear();
                for &b in chunk {
                    let mut buf = [0u8; 2];
                    wide.extend_from_slice(char::from(b).encode_utf8(&mut buf).as_bytes());
                }
                out.write_all(&wide).map_err(CopyError::Writing)?;
            } else {
                out.write_all(chunk).map_err(CopyError::Writing)?;
            }
            tail = match chunk {
                [.., a, b] => [*a, *b],
                [b] => [tail[1], *b],
                [] => tail,
            };
            left -= got as u64;
            self.at += got as u64;
        }
        Ok(tail)
    }
}

/// Why a copy failed: the file read, or the file written.
#[derive(Debug)]
pub(crate) enum CopyError {
    /// The file copied from could not be read on.
    Reading(io::Error),
    /// The file copied to could not be written (a full disk).
    Writing(io::Error),
}

/// What to write after a game whose text ends in `tail` so that the next game starts
/// after a blank line: nothing, or the line ends missing.
pub(crate) fn separator(tail: [u8; 2]) -> &'static [u8] {
    match tail {
        [b'\n', b'\n'] => b"",
        [_, b'\n'] => b"\n",
        _ => b"\n\n",
    }
}
