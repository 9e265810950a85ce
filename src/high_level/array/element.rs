//! The encrypted types an array holds ([`ArrayElement`]: [`FheUint`], [`FheInt`],
//! [`FheBool`]) and the one operation of an element that an elementwise operation
//! records for each of them.

use crate::error::Result;
use crate::high_level::booleans::base::FheBool;
use crate::high_level::booleans::ops::BoolOperand;
use crate::high_level::integers::operands::{Operand, OperandKind};
use crate::high_level::integers::signed::base::{clear_bits, FheInt, FheIntId};
use crate::high_level::integers::unsigned::base::{FheUint, FheUintId, UnsignedClear};
use sealed::{ElementInput, ElementOp, ElementRhs};
use std::borrow::Cow;

/// The crate's side of the element traits: public types in a private module, so
/// that the public traits can build on them while users cannot name them.
pub(crate) mod sealed {
    use crate::error::{Error, Result};
    use crate::high_level::batch::BatchOutput;
    use crate::high_level::internals::storage::Input;
    use crate::integer::BinaryOp;

    /// An elementwise operation between two arrays (or an array and a clear one).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum ElementOp {
        Add,
        Sub,
        Mul,
        Div,
        Rem,
        BitAnd,
        BitOr,
        BitXor,
    }

    impl ElementOp {
        /// The operator's name, for messages.
        pub(crate) fn name(self) -> &'static str {
            match self {
                Self::Add => "add",
                Self::Sub => "sub",
                Self::Mul => "mul",
                Self::Div => "div",
                Self::Rem => "rem",
                Self::BitAnd => "bitand",
                Self::BitOr => "bitor",
                Self::BitXor => "bitxor",
            }
        }

        /// The same operation on integers, `None` for `/` and `%` (which have their
        /// own methods).
        pub(super) fn binary(self) -> Option<BinaryOp> {
            Some(match self {
                Self::Add => BinaryOp::Add,
                Self::Sub => BinaryOp::Sub,
                Self::Mul => BinaryOp::Mul,
                Self::BitAnd => BinaryOp::BitAnd,
                Self::BitOr => BinaryOp::BitOr,
                Self::BitXor => BinaryOp::BitXor,
                Self::Div | Self::Rem => return None,
            })
        }

        /// `Err` saying that `element` has no such operation (the operators' bounds
        /// keep the public API from reaching it).
        pub(super) fn unsupported<T>(self, element: &str) -> Result<T> {
            Err(Error::InvalidParameter(format!(
                "arrays of {element} have no elementwise {}",
                self.name()
            )))
        }
    }

    /// The right operand of one element's operation: an encrypted element or a clear
    /// value.
    pub enum ElementRhs<'a, T: Element> {
        Encrypted(&'a T),
        Clear(T::Clear),
    }

    impl<T: Element> Clone for ElementRhs<'_, T> {
        fn clone(&self) -> Self {
            *self
        }
    }

    impl<T: Element> Copy for ElementRhs<'_, T> {}

    /// An element as an input of a circuit (opaque).
    pub struct ElementInput<'a>(pub(crate) Input<'a>);

    /// What an array does with one of its elements (crate-private methods of
    /// [`super::ArrayElement`]).
    pub trait Element: Clone + BatchOutput + Send + Sync + 'static {
        /// The clear type of an element (`u32` for `FheUint32`, `bool` for
        /// `FheBool`).
        type Clear: Copy + Send + Sync + 'static;
        /// `self op rhs` as one operation (recorded when inside a batch).
        fn element_op(&self, op: ElementOp, rhs: ElementRhs<'_, Self>) -> Result<Self>;
        /// `!self`.
        fn element_not(&self) -> Result<Self>;
        /// The element as an input of a circuit.
        fn element_input(&self) -> ElementInput<'_>;
    }

    /// What an array does with integer elements only.
    pub trait Integer: Element {
        /// The wrapping sum of `values` as one circuit.
        fn element_sum(values: &[&Self]) -> Result<Self>;
    }
}

/// The encrypted types an array holds: [`FheUint`], [`FheInt`] and [`FheBool`]
/// (sealed). Arrays of all of them have `& | ^ !`.
pub trait ArrayElement: sealed::Element {}

/// The encrypted integers an array holds, [`FheUint`] and [`FheInt`] (sealed):
/// arrays of them also have `+ - *`, `sum` and [`super::fhe_array_contains`].
pub trait ArrayInteger: ArrayElement + sealed::Integer {}

/// The encrypted unsigned integers an array holds, [`FheUint`] (sealed): arrays of
/// them also have `/` and `%`.
pub trait ArrayUnsigned: ArrayInteger {}

impl<Id: FheUintId> sealed::Element for FheUint<Id> {
    type Clear = Id::Clear;

    fn element_op(&self, op: ElementOp, rhs: ElementRhs<'_, Self>) -> Result<Self> {
        let rhs = match rhs {
            ElementRhs::Encrypted(x) => OperandKind::Encrypted(Cow::Borrowed(x)),
            ElementRhs::Clear(k) => OperandKind::Clear(k.to_wide()),
        };
        match op.binary() {
            Some(op) => self.binary(op, rhs),
            None if op == ElementOp::Div => self.try_div(Operand(rhs)),
            None => self.try_rem(Operand(rhs)),
        }
    }

    fn element_not(&self) -> Result<Self> {
        self.try_not()
    }

    fn element_input(&self) -> ElementInput<'_> {
        ElementInput(self.input())
    }
}

impl<Id: FheUintId> sealed::Integer for FheUint<Id> {
    fn element_sum(values: &[&Self]) -> Result<Self> {
        Self::sum_of(values)
    }
}

impl<Id: FheUintId> ArrayElement for FheUint<Id> {}
impl<Id: FheUintId> ArrayInteger for FheUint<Id> {}
impl<Id: FheUintId> ArrayUnsigned for FheUint<Id> {}

impl<Id: FheIntId> sealed::Element for FheInt<Id> {
    type Clear = Id::Clear;

    fn element_op(&self, op: ElementOp, rhs: ElementRhs<'_, Self>) -> Result<Self> {
        let rhs = match rhs {
            ElementRhs::Encrypted(x) => OperandKind::Encrypted(Cow::Borrowed(&x.inner)),
            ElementRhs::Clear(k) => OperandKind::Clear(clear_bits::<Id>(k)),
        };
        match op.binary() {
            Some(op) => self.binary(op, rhs),
            None => op.unsupported(Id::NAME),
        }
    }

    fn element_not(&self) -> Result<Self> {
        self.try_not()
    }

    fn element_input(&self) -> ElementInput<'_> {
        ElementInput(self.inner.input())
    }
}

impl<Id: FheIntId> sealed::Integer for FheInt<Id> {
    fn element_sum(values: &[&Self]) -> Result<Self> {
        Self::sum_of(values)
    }
}

impl<Id: FheIntId> ArrayElement for FheInt<Id> {}
impl<Id: FheIntId> ArrayInteger for FheInt<Id> {}

impl sealed::Element for FheBool {
    type Clear = bool;

    fn element_op(&self, op: ElementOp, rhs: ElementRhs<'_, Self>) -> Result<Self> {
        let rhs = match rhs {
            ElementRhs::Encrypted(x) => BoolOperand::from(x),
            ElementRhs::Clear(k) => BoolOperand::from(k),
        };
        match op {
            ElementOp::BitAnd => self.try_and(rhs),
            ElementOp::BitOr => self.try_or(rhs),
            ElementOp::BitXor => self.try_xor(rhs),
            _ => op.unsupported("FheBool"),
        }
    }

    fn element_not(&self) -> Result<Self> {
        self.try_not()
    }

    fn element_input(&self) -> ElementInput<'_> {
        ElementInput(self.input())
    }
}

impl ArrayElement for FheBool {}
