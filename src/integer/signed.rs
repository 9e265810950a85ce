//! Two's complement integers on the same radix blocks as unsigned ones: the most
//! significant bit of the most significant block is the sign.
//!
//! Addition, subtraction, multiplication, negation, the bitwise operations, `<<`,
//! rotations, `==` and `!=` are the unsigned circuits unchanged (two's complement
//! wraps the same way). What differs:
//!
//! - **Order** (`<`, `<=`, `>`, `>=`, min, max): the unsigned plans of
//!   [`crate::integer::compare`], whose tables that read the most significant block
//!   flip its sign bit (`u ^ m/2`), which maps the signed order onto the unsigned one.
//!   This costs no bootstrap, where flipping the sign bits first would cost one per
//!   operand (and a layer); only a plan that would extend a flag by the top block
//!   read raw (the ripple of one-thread backends) needs one more table there, in the
//!   first layer, which the planner counts. 64-bit `<`: 46 bootstraps in 4 layers on
//!   a GPU (as unsigned), 44 in 8 at parallelism 2 (unsigned 45 in 6, the same
//!   estimated latency), 33 at parallelism 1 (unsigned 32).
//! - **`>>`** copies the sign: a clear amount moves blocks and fills with the
//!   *sign block* (`m - 1` or 0, one table of the top block), then shifts inside the
//!   digits like the unsigned shift: `blocks + 1` bootstraps at most, in 2 layers
//!   (64 bits by 7: 30). An
//!   encrypted amount uses `x >> k = ((x ^ s) >>> k) ^ s` (`s` every bit a copy of
//!   the sign, `>>>` logical): one bivariate table per block on each side of the
//!   unsigned barrel shifter, `2 blocks` bootstraps and 2 layers more (64 bits: 388).
//! - **`abs`**: `(x ^ s) + sign` (wrapping, so `abs(MIN) = MIN`): one table per block
//!   and the sign bit in one layer, then an addition (64 bits at parallelism 2: 65
//!   bootstraps, 33 layers, the addition being a ripple there). Selecting between `x`
//!   and `-x` would cost a negation and 2 bootstraps per block.
//! - **Sign extension** (casts to a wider type): the sign block, copied.

use super::comparison::{self, Relation, Rhs as OrderRhs};
use super::operation::{binary, comparison as unsigned_comparison, to_boolean};
use super::{add, cast, check_radix, clear_digits, select, shift, shift_encrypted};
use super::{BinaryOp, CmpOp, Radix, Rhs, ShiftOp, I2048, U2048};
use crate::error::Result;
use crate::integer::circuit::{Circuit, Wire};

/// The number of bits of `blocks` blocks.
fn width(c: &Circuit, blocks: usize) -> u32 {
    blocks as u32 * c.message_modulus().trailing_zeros()
}

/// `bits`-bit two's complement `value` (its low `bits` bits) as an `i128` (the
/// tests' reference).
#[cfg(test)]
pub(crate) fn sign_extend_clear(value: u128, bits: u32) -> i128 {
    match bits {
        0 => 0,
        1..=127 => {
            let shift = 128 - bits;
            ((value << shift) as i128) >> shift
        }
        _ => value as i128,
    }
}

/// `bits`-bit two's complement `value` (its low `bits` bits), sign-extended to the
/// circuits' signed clear type.
pub(crate) fn sign_extend_wide(value: U2048, bits: u32) -> I2048 {
    match bits {
        0 => I2048::ZERO,
        b if b >= U2048::BITS => I2048::from_unsigned(value),
        b => {
            I2048::from_unsigned(value.wrapping_shl(U2048::BITS - b)).wrapping_shr(U2048::BITS - b)
        }
    }
}

/// `value` as `bits`-bit two's complement (its low `bits` bits, like an `as` cast).
fn wrap_clear(value: I2048, bits: u32) -> U2048 {
    value.as_unsigned().low_bits(bits)
}

/// The sign of `x` as a whole block: `m - 1` (every bit set) if negative, else 0. One
/// bootstrap of the most significant block (none for an empty or known value).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{encrypt_radix, run, sign_block};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0b1000_0001u128, 4).unwrap(); // -127 as an i8
/// let out = run(&backend, &[&a], |c, x| Ok(vec![vec![sign_block(c, &x[0])?]])).unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 3);
/// ```
pub fn sign_block(c: &mut Circuit, x: &[Wire]) -> Result<Wire> {
    sign_table(c, x, c.message_modulus() - 1)
}

/// The sign bit of `x` (1 if negative) as a block holding 0 or 1.
pub fn sign_bit(c: &mut Circuit, x: &[Wire]) -> Result<Wire> {
    sign_table(c, x, 1)
}

/// `negative` if the top block's high bit is set, else 0.
fn sign_table(c: &mut Circuit, x: &[Wire], negative: u64) -> Result<Wire> {
    check_radix(c, x)?;
    let half = c.message_modulus() / 2;
    match x.last() {
        None => c.constant(0),
        Some(&top) => match c.known_value(top) {
            Some(v) => c.constant(if v >= half { negative } else { 0 }),
            None => c.table(top, move |v| if v >= half { negative } else { 0 }),
        },
    }
}

/// `x` resized to `num_blocks` blocks as a signed value: truncated like an `as` cast
/// to a narrower type, or extended with copies of its sign block (one bootstrap).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{decrypt_radix, encrypt_radix, run, sign_extend};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0xfeu128, 4).unwrap(); // -2 as an i8
/// let out = run(&backend, &[&a], |c, x| Ok(vec![sign_extend(c, &x[0], 8)?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 0xfffe); // -2 as an i16
/// ```
pub fn sign_extend(c: &mut Circuit, x: &[Wire], num_blocks: usize) -> Result<Radix> {
    if num_blocks <= x.len() || x.is_empty() {
        return cast(c, x, num_blocks);
    }
    let sign = sign_block(c, x)?;
    let mut out = x.to_vec();
    out.resize(num_blocks, sign);
    Ok(out)
}

/// The signed order relation of `op` (`None` for `==` and `!=`).
fn signed_relation(op: CmpOp) -> Option<Relation> {
    op.relation().map(|rel| Relation {
        signed: true,
        ..rel
    })
}

/// `lhs op rhs` on two's complement operands, as one block holding 0 or 1 (`==` and
/// `!=` are the unsigned circuits). See the module docs for the costs.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{encrypt_radix, run, signed_compare, CmpOp};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0xffu128, 4).unwrap(); // -1
/// let b = encrypt_radix(&ck, 0x01u128, 4).unwrap(); // 1
/// let out = run(&backend, &[&a, &b], |c, x| {
///     Ok(vec![vec![signed_compare(c, CmpOp::Lt, &x[0], &x[1])?]])
/// })
/// .unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1);
/// ```
pub fn signed_compare(c: &mut Circuit, op: CmpOp, lhs: &[Wire], rhs: &[Wire]) -> Result<Wire> {
    match signed_relation(op) {
        Some(rel) => comparison::order(c, lhs, OrderRhs::Encrypted(rhs), rel),
        None => super::compare(c, op, lhs, rhs),
    }
}

/// `x op clear` on a two's complement `x`, as one block holding 0 or 1; a `clear`
/// outside the range of `x` gives a constant (no bootstrap).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{encrypt_radix, run, signed_scalar_compare, CmpOp};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0x80u128, 4).unwrap(); // -128
/// let out = run(&backend, &[&a], |c, x| {
///     Ok(vec![
///         vec![signed_scalar_compare(c, CmpOp::Le, &x[0], -128)?],
///         vec![signed_scalar_compare(c, CmpOp::Gt, &x[0], -1000)?], // out of range
///     ])
/// })
/// .unwrap();
/// assert_eq!(ck.decrypt(&out[0][0]).unwrap(), 1);
/// assert_eq!(ck.decrypt(&out[1][0]).unwrap(), 1);
/// ```
pub fn signed_scalar_compare(
    c: &mut Circuit,
    op: CmpOp,
    x: &[Wire],
    clear: impl Into<I2048>,
) -> Result<Wire> {
    let clear: I2048 = clear.into();
    check_radix(c, x)?;
    let bits = width(c, x.len());
    let bits_clear = wrap_clear(clear, bits);
    if sign_extend_wide(bits_clear, bits) != clear {
        // Out of range: every value of x is on the same side of `clear`.
        let x_below = clear > I2048::ZERO;
        let holds = match op {
            CmpOp::Eq => false,
            CmpOp::Ne => true,
            CmpOp::Lt | CmpOp::Le => x_below,
            CmpOp::Gt | CmpOp::Ge => !x_below,
        };
        return c.constant(holds as u64);
    }
    let digits = clear_digits(bits_clear, c.message_modulus(), x.len());
    match signed_relation(op) {
        Some(rel) => comparison::order(c, x, OrderRhs::Clear(digits), rel),
        None => comparison::scalar_equality(c, x, &digits, op == CmpOp::Eq),
    }
}

/// The smaller (`want_max = false`) or larger of two's complement `lhs` and `rhs`: a
/// signed `>` then a [`select`].
fn signed_min_max(c: &mut Circuit, lhs: &[Wire], rhs: Rhs, want_max: bool) -> Result<Radix> {
    let (greater, rhs) = match rhs {
        Rhs::Wires(r) => (signed_compare(c, CmpOp::Gt, lhs, r)?, r.to_vec()),
        Rhs::Clear(k) => {
            let bits = width(c, lhs.len());
            let clear = sign_extend_wide(k, bits);
            let greater = signed_scalar_compare(c, CmpOp::Gt, lhs, clear)?;
            let digits = clear_digits(k, c.message_modulus(), lhs.len());
            let blocks = digits.into_iter().map(|d| c.constant(d));
            (greater, blocks.collect::<Result<Radix>>()?)
        }
    };
    if want_max {
        select(c, greater, lhs, &rhs)
    } else {
        select(c, greater, &rhs, lhs)
    }
}

/// Every block of `x` with its bits flipped where `x` is negative (`x ^ s`, `s` every
/// bit a copy of the sign of `by`): one table per block, in one layer.
fn flip_if_negative(c: &mut Circuit, x: &[Wire], by: &[Wire]) -> Result<Radix> {
    let top = match by.last() {
        Some(&top) => top,
        None => return Ok(x.to_vec()),
    };
    let m = c.message_modulus();
    let flip = move |v: u64, t: u64| if t >= m / 2 { m - 1 - v } else { v };
    x.iter()
        .map(|&w| {
            if w == top {
                c.table(w, move |v| flip(v, v))
            } else {
                c.bivariate(w, top, flip)
            }
        })
        .collect()
}

/// `-x` (wrapping) where `flag`, a block holding 0 or 1, is 1, else `x`: `(x ^ s) +
/// flag` with `s` every bit a copy of the flag, one bivariate table per block and an
/// addition (a negation and a selection would cost 2 bootstraps per block more).
pub(crate) fn negate_where(c: &mut Circuit, x: &[Wire], flag: Wire) -> Result<Radix> {
    check_radix(c, x)?;
    match c.known_value(flag) {
        Some(0) => return Ok(x.to_vec()),
        Some(_) => return super::neg(c, x),
        None if x.is_empty() => return Ok(Vec::new()),
        None => {}
    }
    let m = c.message_modulus();
    let flipped = x
        .iter()
        .map(|&w| c.bivariate(w, flag, move |v, f| if f == 1 { m - 1 - v } else { v }))
        .collect::<Result<Radix>>()?;
    let mut carry_in = vec![flag];
    carry_in.resize(x.len(), c.constant(0)?);
    add(c, &flipped, &carry_in)
}

/// `x >> amount` copying the sign (arithmetic shift), the amount taken modulo the
/// number of bits like `i64::wrapping_shr`. Free for an amount of 0; otherwise the sign
/// block and at most one bootstrap per block.
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{arithmetic_shr, decrypt_radix, encrypt_radix, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0x90u128, 4).unwrap(); // -112
/// let out = run(&backend, &[&a], |c, x| Ok(vec![arithmetic_shr(c, &x[0], 3)?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 0xf2); // -14
/// ```
pub fn arithmetic_shr(c: &mut Circuit, x: &[Wire], amount: u64) -> Result<Radix> {
    check_radix(c, x)?;
    let n = x.len();
    let digit_bits = c.message_modulus().trailing_zeros() as u64;
    let amount = if n == 0 {
        0
    } else {
        amount % (n as u64 * digit_bits)
    };
    if amount == 0 {
        return Ok(x.to_vec());
    }
    // The unsigned shift of x and one sign block above it gives every block that
    // reads bits of x; the blocks above those are sign blocks.
    let sign = sign_block(c, x)?;
    let mut extended = x.to_vec();
    extended.push(sign);
    let shifted = shift(c, ShiftOp::Shr, &extended, amount)?;
    let kept = n - (amount / digit_bits) as usize;
    let mut out = shifted[..kept].to_vec();
    out.resize(n, sign);
    Ok(out)
}

/// `x >> amount` copying the sign, with an encrypted amount (taken modulo the number
/// of bits): `((x ^ s) >>> amount) ^ s` around the unsigned barrel shifter of
/// [`shift_encrypted`].
pub fn arithmetic_shr_encrypted(c: &mut Circuit, x: &[Wire], amount: &[Wire]) -> Result<Radix> {
    check_radix(c, x)?;
    let flipped = flip_if_negative(c, x, x)?;
    let shifted = shift_encrypted(c, ShiftOp::Shr, &flipped, amount)?;
    flip_if_negative(c, &shifted, x)
}

/// `|x|`, wrapping like `i64::wrapping_abs` (the minimum stays itself): `(x ^ s) +
/// sign` (see the module docs).
///
/// ```
/// use gpufhe::backend::cpu::CpuBackend;
/// use gpufhe::integer::{abs, decrypt_radix, encrypt_radix, run};
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
/// let a = encrypt_radix(&ck, 0xf9u128, 4).unwrap(); // -7
/// let out = run(&backend, &[&a], |c, x| Ok(vec![abs(c, &x[0])?])).unwrap();
/// assert_eq!(decrypt_radix(&ck, &out[0]).unwrap(), 7);
/// ```
pub fn abs(c: &mut Circuit, x: &[Wire]) -> Result<Radix> {
    Ok(abs_and_sign(c, x)?.0)
}

/// [`abs`] and the sign bit of `x` it computes (1 if negative), for the operations
/// that need both.
pub(crate) fn abs_and_sign(c: &mut Circuit, x: &[Wire]) -> Result<(Radix, Wire)> {
    check_radix(c, x)?;
    let negative = sign_bit(c, x)?;
    if x.is_empty() {
        return Ok((Vec::new(), negative));
    }
    let flipped = flip_if_negative(c, x, x)?;
    let mut sign = vec![negative];
    sign.resize(x.len(), c.constant(0)?);
    Ok((add(c, &flipped, &sign)?, negative))
}

/// The circuit of `lhs op rhs` on two's complement integers: `>>` is arithmetic and
/// min/max follow the signed order; every other operation is [`binary`]. A clear
/// right operand is given as its two's complement bits.
pub fn signed_binary(c: &mut Circuit, op: BinaryOp, lhs: &[Wire], rhs: Rhs) -> Result<Radix> {
    match (op, rhs) {
        (BinaryOp::Shr, Rhs::Wires(amount)) => arithmetic_shr_encrypted(c, lhs, amount),
        (BinaryOp::Shr, Rhs::Clear(k)) => arithmetic_shr(
            c,
            lhs,
            super::operation::clear_shift_amount(c, lhs.len(), k),
        ),
        (BinaryOp::Min, rhs) => signed_min_max(c, lhs, rhs, false),
        (BinaryOp::Max, rhs) => signed_min_max(c, lhs, rhs, true),
        (op, rhs) => binary(c, op, lhs, rhs),
    }
}

/// The circuit of `lhs op rhs` on two's complement integers, as a boolean block. A
/// clear right operand is given as its two's complement bits.
pub fn signed_comparison(c: &mut Circuit, op: CmpOp, lhs: &[Wire], rhs: Rhs) -> Result<Wire> {
    if op.relation().is_none() {
        return unsigned_comparison(c, op, lhs, rhs);
    }
    let w = match rhs {
        Rhs::Wires(r) => signed_compare(c, op, lhs, r)?,
        Rhs::Clear(k) => {
            let clear = sign_extend_wide(k, width(c, lhs.len()));
            signed_scalar_compare(c, op, lhs, clear)?
        }
    };
    to_boolean(c, w)
}

#[cfg(test)]
mod tests;
