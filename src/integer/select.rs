//! Selection between two integers by an encrypted condition.

use super::Radix;
use crate::error::{Error, Result};
use crate::integer::circuit::{Circuit, Wire};

/// `if cond { if_true } else { if_false }`, where `cond` is a block holding 0 or 1.
pub fn select(
    _c: &mut Circuit,
    _cond: Wire,
    _if_true: &[Wire],
    _if_false: &[Wire],
) -> Result<Radix> {
    Err(Error::InvalidParameter("pending".into()))
}
