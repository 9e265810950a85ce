//! Encrypted booleans: [`FheBool`], one block holding 0 or 1.

use super::fhe_uint::{FheUint, FheUintId};
use super::global_state::current_server_key;
use super::keys::{ClientKey, KeyTag};
use super::operations::single;
use super::storage::{Input, Storage};
use super::traits::{
    expect_op, FheDecrypt, FheEncrypt, FheEq, FheTrivialEncrypt, FheTryDecrypt, FheTryEncrypt,
    FheTryTrivialEncrypt, IfThenElse,
};
use crate::error::{Error, Result};
use crate::integer::{self, BitOp, Circuit, Radix, Wire};
use crate::scheduler::Device;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// An encrypted boolean: one block holding 0 or 1. Comparisons return it; it selects
/// between encrypted values ([`FheBool::select`], [`IfThenElse`]) and combines with
/// `& | ^ !` (with another `FheBool` or a clear `bool`).
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheBool};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
/// set_server_key(server_key);
/// let a = FheBool::encrypt(true, &client_key);
/// let b = FheBool::encrypt(false, &client_key);
/// assert!((&a ^ &b).decrypt(&client_key));
/// assert!(!(!&a).decrypt(&client_key));
/// assert!((&b | true).decrypt(&client_key)); // a clear operand: no bootstrap
/// ```
#[derive(Clone)]
pub struct FheBool {
    pub(crate) storage: Storage,
}

impl std::fmt::Debug for FheBool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.storage.tag() {
            Some(tag) => write!(f, "FheBool {{ tag: {tag}, .. }}"),
            None => write!(f, "FheBool {{ trivial, .. }}"),
        }
    }
}

/// The right operand of a boolean operation: `&FheBool`, `FheBool` or a clear
/// `bool`.
pub struct BoolOperand<'a>(BoolKind<'a>);

enum BoolKind<'a> {
    Encrypted(Cow<'a, FheBool>),
    Clear(bool),
}

/// The right operand of a boolean operation inside a circuit.
#[derive(Clone, Copy)]
enum BoolRhs {
    Wire(Wire),
    Clear(bool),
}

impl<'a> From<&'a FheBool> for BoolOperand<'a> {
    fn from(value: &'a FheBool) -> Self {
        Self(BoolKind::Encrypted(Cow::Borrowed(value)))
    }
}

impl From<FheBool> for BoolOperand<'_> {
    fn from(value: FheBool) -> Self {
        Self(BoolKind::Encrypted(Cow::Owned(value)))
    }
}

impl From<bool> for BoolOperand<'_> {
    fn from(value: bool) -> Self {
        Self(BoolKind::Clear(value))
    }
}

/// `1 - w`: the boolean not, without bootstrap.
fn not_wire(c: &mut Circuit, w: Wire) -> Result<Wire> {
    c.linear(&[(w, -1)], 1)
}

impl FheBool {
    pub(crate) fn from_storage(storage: Storage) -> Self {
        Self { storage }
    }

    pub(crate) fn input(&self) -> Input<'_> {
        Input {
            storage: &self.storage,
            bits: 1,
        }
    }

    /// The tag of the client key it was encrypted under, `None` if trivial.
    pub fn tag(&self) -> Option<KeyTag> {
        self.storage.tag()
    }

    /// Whether it is a trivial encryption (readable without a key).
    pub fn is_trivial(&self) -> bool {
        self.tag().is_none()
    }

    /// The value of a trivial encryption; `Err` if it is a real encryption.
    pub fn try_decrypt_trivial(&self) -> Result<bool> {
        match self.storage {
            Storage::Trivial(v) => Ok(!v.is_zero()),
            Storage::Encrypted { .. } => Err(Error::InvalidParameter(
                "this FheBool is encrypted, not trivial: decrypt it with its client key".into(),
            )),
        }
    }

    /// Where its block lives (see [`FheUint::current_device`]).
    pub fn current_device(&self) -> Device {
        self.storage.device()
    }

    /// Moves its block to `device` (see [`FheUint::move_to_device`]).
    pub fn move_to_device(&mut self, device: Device) -> Result<()> {
        self.storage.move_to(device)
    }

    /// `Err` unless it is well formed: a trivial 0 or 1, or one clean block whose
    /// bound is at most 1. Deserialization runs it.
    pub fn validate(&self) -> Result<()> {
        self.storage.validate(1, Some(1))
    }

    /// A circuit on `self` and `rhs` giving one boolean block.
    fn combine(
        &self,
        rhs: BoolOperand<'_>,
        build: impl FnOnce(&mut Circuit, Wire, BoolRhs) -> Result<Wire>,
    ) -> Result<Self> {
        let mut inputs = vec![self.input()];
        let clear = match &rhs.0 {
            BoolKind::Encrypted(b) => {
                inputs.push(b.input());
                None
            }
            BoolKind::Clear(v) => Some(*v),
        };
        let out = current_server_key()?.execute(&inputs, |c, w| {
            let rhs = match clear {
                Some(v) => BoolRhs::Clear(v),
                None => BoolRhs::Wire(w[1][0]),
            };
            let out = build(c, w[0][0], rhs)?;
            Ok(vec![vec![integer::to_boolean(c, out)?]])
        })?;
        Ok(Self::from_storage(single(out)?))
    }

    fn bitwise(&self, op: BitOp, rhs: BoolOperand<'_>) -> Result<Self> {
        self.combine(rhs, |c, a, rhs| match rhs {
            BoolRhs::Wire(b) => Ok(integer::bitwise(c, op, &[a], &[b])?[0]),
            // A clear operand fixes the result or leaves `a` (possibly negated).
            BoolRhs::Clear(k) => match (op, k) {
                (BitOp::And, false) => c.constant(0),
                (BitOp::Or, true) => c.constant(1),
                (BitOp::Xor, true) => not_wire(c, a),
                _ => Ok(a),
            },
        })
    }

    /// `self & rhs`; `Err` if there is no server key on this thread or the operands
    /// belong to different keys. The operator `&` panics instead.
    pub fn try_and<'r>(&self, rhs: impl Into<BoolOperand<'r>>) -> Result<Self> {
        self.bitwise(BitOp::And, rhs.into())
    }

    /// `self | rhs`; `Err` on failure.
    pub fn try_or<'r>(&self, rhs: impl Into<BoolOperand<'r>>) -> Result<Self> {
        self.bitwise(BitOp::Or, rhs.into())
    }

    /// `self ^ rhs`; `Err` on failure.
    pub fn try_xor<'r>(&self, rhs: impl Into<BoolOperand<'r>>) -> Result<Self> {
        self.bitwise(BitOp::Xor, rhs.into())
    }

    /// `!self`, that is `1 - self` (no bootstrap); `Err` on failure.
    pub fn try_not(&self) -> Result<Self> {
        self.combine(BoolOperand::from(false), |c, a, _| not_wire(c, a))
    }

    fn equality(&self, rhs: BoolOperand<'_>, want_equal: bool) -> Result<Self> {
        self.combine(rhs, |c, a, rhs| match rhs {
            BoolRhs::Wire(b) if want_equal => integer::eq(c, &[a], &[b]),
            BoolRhs::Wire(b) => integer::ne(c, &[a], &[b]),
            BoolRhs::Clear(k) if k == want_equal => Ok(a),
            BoolRhs::Clear(_) => not_wire(c, a),
        })
    }

    /// `if self { then } else { otherwise }` for encrypted integers or booleans,
    /// called as `cond.select(&a, &b)` (TFHE-rs's form) or
    /// `FheBool::select(&cond, &a, &b)`. [`FheBool::if_then_else`] and
    /// [`FheBool::cmux`] are the same operation under TFHE-rs's other names.
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_select`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheBool, FheUint8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let cond = FheBool::encrypt(false, &client_key);
    /// let a = FheUint8::encrypt(10u8, &client_key);
    /// let b = FheUint8::encrypt(20u8, &client_key);
    /// let picked: u8 = cond.select(&a, &b).decrypt(&client_key);
    /// assert_eq!(picked, 20);
    /// let same: u8 = FheBool::select(&cond, &a, &b).decrypt(&client_key);
    /// assert_eq!(same, 20);
    /// let (t, f) = (FheBool::encrypt(true, &client_key), FheBool::encrypt(false, &client_key));
    /// assert!(!cond.cmux(&t, &f).decrypt(&client_key));
    /// assert!(cond.if_then_else(&f, &t).decrypt(&client_key));
    /// ```
    #[track_caller]
    pub fn select<T>(&self, then: &T, otherwise: &T) -> T
    where
        FheBool: IfThenElse<T>,
    {
        expect_op(self.try_select(then, otherwise), "select")
    }

    /// `if self { then } else { otherwise }`; `Err` if there is no server key on
    /// this thread or the operands belong to different keys.
    pub fn try_select<T>(&self, then: &T, otherwise: &T) -> Result<T>
    where
        FheBool: IfThenElse<T>,
    {
        IfThenElse::try_if_then_else(self, then, otherwise)
    }

    /// [`FheBool::select`] under TFHE-rs's other name; works without importing the
    /// [`IfThenElse`] trait.
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_select`] fails.
    #[track_caller]
    pub fn if_then_else<T>(&self, then: &T, otherwise: &T) -> T
    where
        FheBool: IfThenElse<T>,
    {
        expect_op(self.try_select(then, otherwise), "if_then_else")
    }

    /// [`FheBool::try_select`] under the name of [`IfThenElse`].
    pub fn try_if_then_else<T>(&self, then: &T, otherwise: &T) -> Result<T>
    where
        FheBool: IfThenElse<T>,
    {
        self.try_select(then, otherwise)
    }

    /// [`FheBool::select`] under TFHE-rs's name for the "controlled mux".
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_select`] fails.
    #[track_caller]
    pub fn cmux<T>(&self, then: &T, otherwise: &T) -> T
    where
        FheBool: IfThenElse<T>,
    {
        expect_op(self.try_select(then, otherwise), "cmux")
    }

    /// [`FheBool::try_select`] under the name of [`FheBool::cmux`].
    pub fn try_cmux<T>(&self, then: &T, otherwise: &T) -> Result<T>
    where
        FheBool: IfThenElse<T>,
    {
        self.try_select(then, otherwise)
    }

    /// The selection circuit, or a copy of the chosen value if the condition is
    /// trivial. `boolean` makes the output a boolean block.
    fn select_storage(
        &self,
        then: Input<'_>,
        otherwise: Input<'_>,
        boolean: bool,
    ) -> Result<Storage> {
        if let Storage::Trivial(v) = self.storage {
            return Ok(if !v.is_zero() { then } else { otherwise }.storage.clone());
        }
        let out = current_server_key()?.execute(&[self.input(), then, otherwise], |c, w| {
            let mut out: Radix = integer::select(c, w[0][0], &w[1], &w[2])?;
            if boolean {
                out[0] = integer::to_boolean(c, out[0])?;
            }
            Ok(vec![out])
        })?;
        single(out)
    }
}

impl<Id: FheUintId> IfThenElse<FheUint<Id>> for FheBool {
    fn try_if_then_else(&self, then: &FheUint<Id>, otherwise: &FheUint<Id>) -> Result<FheUint<Id>> {
        self.select_storage(then.input(), otherwise.input(), false)
            .map(FheUint::from_storage)
    }
}

impl IfThenElse<FheBool> for FheBool {
    fn try_if_then_else(&self, then: &FheBool, otherwise: &FheBool) -> Result<FheBool> {
        self.select_storage(then.input(), otherwise.input(), true)
            .map(FheBool::from_storage)
    }
}

impl<'r, R: Into<BoolOperand<'r>>> FheEq<R> for FheBool {
    fn try_eq(&self, other: R) -> Result<FheBool> {
        self.equality(other.into(), true)
    }

    fn try_ne(&self, other: R) -> Result<FheBool> {
        self.equality(other.into(), false)
    }
}

impl FheTryEncrypt<bool, ClientKey> for FheBool {
    /// Never fails for a well-formed key.
    fn try_encrypt(value: bool, key: &ClientKey) -> Result<Self> {
        Ok(Self::from_storage(key.encrypt_storage(value.into(), 1)?))
    }
}

impl FheEncrypt<bool, ClientKey> for FheBool {
    #[track_caller]
    fn encrypt(value: bool, key: &ClientKey) -> Self {
        expect_op(Self::try_encrypt(value, key), "encrypt")
    }
}

impl FheTryDecrypt<bool> for FheBool {
    /// `Err` if it belongs to another client key or does not decrypt to 0 or 1.
    fn try_decrypt(&self, key: &ClientKey) -> Result<bool> {
        match u128::try_from(key.decrypt_storage(&self.storage)?) {
            Ok(0) => Ok(false),
            Ok(1) => Ok(true),
            v => Err(Error::InvalidParameter(format!(
                "an FheBool decrypted to {v:?}, not 0 or 1"
            ))),
        }
    }
}

impl FheDecrypt<bool> for FheBool {
    #[track_caller]
    fn decrypt(&self, key: &ClientKey) -> bool {
        !expect_op(key.decrypt_storage(&self.storage), "decrypt").is_zero()
    }
}

impl FheTrivialEncrypt<bool> for FheBool {
    fn encrypt_trivial(value: bool) -> Self {
        Self::from_storage(Storage::Trivial(value.into()))
    }
}

impl FheTryTrivialEncrypt<bool> for FheBool {
    /// Never fails.
    fn try_encrypt_trivial(value: bool) -> Result<Self> {
        Ok(Self::encrypt_trivial(value))
    }
}

/// Writes the key tag and the block (or the value of a trivial encryption).
impl Serialize for FheBool {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.storage.serialize(s)
    }
}

/// Runs [`FheBool::validate`] on what was read.
impl<'de> Deserialize<'de> for FheBool {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let value = Self::from_storage(Storage::deserialize(d)?);
        value.validate().map_err(serde::de::Error::custom)?;
        Ok(value)
    }
}
