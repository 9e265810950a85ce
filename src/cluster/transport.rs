//! Bytes between the processes of the job, over MPI: point-to-point messages and
//! a broadcast from the first process, cut into pieces that MPI's `int` counts can
//! hold, with a size limit checked before anything large is kept. Every call here
//! is matched by the peers' calls (the protocol in [`super`] keeps them in step),
//! also when a limit is exceeded: the pieces are then received and dropped.

use crate::error::{Error, Result};
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, Root, Source};

/// The largest piece of one MPI message (MPI counts are `int`s).
const PIECE: usize = 1 << 30;

/// The rank of the process that plans batches, gathers results and broadcasts.
pub(crate) const ROOT: i32 = 0;

/// Sends `bytes` to `to`: pieces of [`PIECE`] bytes, the last one shorter (maybe
/// empty), so the receiver knows where the message ends.
pub(crate) fn send_bytes(world: &SimpleCommunicator, to: i32, bytes: &[u8]) {
    let process = world.process_at_rank(to);
    let mut pieces = bytes.chunks(PIECE);
    loop {
        let piece = pieces.next().unwrap_or(&[]);
        process.send(piece);
        if piece.len() < PIECE {
            break;
        }
    }
}

/// Receives a message [`send_bytes`] sent from `from`; `Err` naming `from` (after
/// receiving and dropping the rest) if it holds more than `limit` bytes.
pub(crate) fn receive_bytes(world: &SimpleCommunicator, from: i32, limit: u64) -> Result<Vec<u8>> {
    let process = world.process_at_rank(from);
    let mut bytes = Vec::new();
    let mut over = false;
    loop {
        let (piece, _) = process.receive_vec::<u8>();
        let last = piece.len() < PIECE;
        if bytes.len() as u64 + piece.len() as u64 > limit {
            over = true;
            bytes = Vec::new();
        }
        if !over {
            bytes.extend_from_slice(&piece);
        }
        if last {
            break;
        }
    }
    if over {
        return Err(Error::Serialization(format!(
            "rank {from} sent more than the limit of {limit} bytes"
        )));
    }
    Ok(bytes)
}

/// Broadcasts `bytes` (given on the first process, `None` elsewhere) to every
/// process. `Err` on a process whose limit the message exceeds (it still takes part
/// in every piece of the broadcast).
pub(crate) fn broadcast_bytes(
    world: &SimpleCommunicator,
    bytes: Option<Vec<u8>>,
    limit: u64,
) -> Result<Vec<u8>> {
    let root = world.process_at_rank(ROOT);
    let mut len = bytes.as_ref().map_or(0, |b| b.len() as u64);
    root.broadcast_into(&mut len);
    if let Some(mut bytes) = bytes {
        for piece in bytes.chunks_mut(PIECE) {
            root.broadcast_into(piece);
        }
        return Ok(bytes);
    }
    let fits = len <= limit;
    let mut out = Vec::new();
    let mut left = len;
    while left > 0 {
        let n = left.min(PIECE as u64) as usize;
        let mut piece = vec![0u8; n];
        root.broadcast_into(&mut piece[..]);
        if fits {
            out.extend_from_slice(&piece);
        }
        left -= n as u64;
    }
    if !fits {
        return Err(Error::Serialization(format!(
            "rank {ROOT} broadcast {len} bytes, more than the limit of {limit}"
        )));
    }
    Ok(out)
}
