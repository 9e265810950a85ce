//! The operator glue of the encrypted integers, written once for both signednesses
//! (macros only, invoked in `unsigned/` and `signed/`): the std operators for every
//! combination of owned and borrowed operands, the clear operands on the left, the
//! comparison, `min`/`max`, rotation, overflow, division and sum traits. Each one
//! calls its `try_` form and panics with the error's message if it fails (no server
//! key on the thread, operands of different keys): see the `# Panics` sections of
//! the traits.

/// `Op` and `OpAssign` for `$T<Id>` (`FheUint` or `FheInt`) with any right operand
/// that converts into `$Rhs<Id>` (borrowed or owned encrypted, or clear).
macro_rules! encrypted_operator {
    ($T:ident<$IdT:ident>, $Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $try:ident, $Rhs:ty) => {
        impl<'r, Id: $IdT, R: Into<$Rhs>> $Op<R> for &$T<Id> {
            type Output = $T<Id>;
            #[track_caller]
            fn $op(self, rhs: R) -> $T<Id> {
                $crate::high_level::internals::expect_op(self.$try(rhs), stringify!($op))
            }
        }

        impl<'r, Id: $IdT, R: Into<$Rhs>> $Op<R> for $T<Id> {
            type Output = $T<Id>;
            #[track_caller]
            fn $op(self, rhs: R) -> $T<Id> {
                (&self).$op(rhs)
            }
        }

        impl<'r, Id: $IdT, R: Into<$Rhs>> $OpAssign<R> for $T<Id> {
            #[track_caller]
            fn $op_assign(&mut self, rhs: R) {
                *self = (&*self).$op(rhs);
            }
        }
    };
}

/// Every std operator of `$T<Id>`: arithmetic and bitwise ones with right operands
/// `$Operand`, shifts with `$Shift`, `-` and `!`.
macro_rules! std_operators {
    ($T:ident<$IdT:ident>, $Operand:ty, $Shift:ty) => {
        $crate::high_level::integers::operators::encrypted_operator!($T<$IdT>, Add, add, AddAssign, add_assign, try_add, $Operand);
        $crate::high_level::integers::operators::encrypted_operator!($T<$IdT>, Sub, sub, SubAssign, sub_assign, try_sub, $Operand);
        $crate::high_level::integers::operators::encrypted_operator!($T<$IdT>, Mul, mul, MulAssign, mul_assign, try_mul, $Operand);
        $crate::high_level::integers::operators::encrypted_operator!($T<$IdT>, BitAnd, bitand, BitAndAssign, bitand_assign, try_bitand, $Operand);
        $crate::high_level::integers::operators::encrypted_operator!($T<$IdT>, BitOr, bitor, BitOrAssign, bitor_assign, try_bitor, $Operand);
        $crate::high_level::integers::operators::encrypted_operator!($T<$IdT>, BitXor, bitxor, BitXorAssign, bitxor_assign, try_bitxor, $Operand);
        $crate::high_level::integers::operators::encrypted_operator!($T<$IdT>, Shl, shl, ShlAssign, shl_assign, try_shl, $Shift);
        $crate::high_level::integers::operators::encrypted_operator!($T<$IdT>, Shr, shr, ShrAssign, shr_assign, try_shr, $Shift);
        $crate::high_level::integers::operators::unary_operator!(Neg, neg, try_neg, $T<Id>, Id: $IdT);
        $crate::high_level::integers::operators::unary_operator!(Not, not, try_not, $T<Id>, Id: $IdT);
    };
}
pub(crate) use {encrypted_operator, std_operators};

/// `/`, `%`, `/=` and `%=` of `$T<Id>` with right operands `$Operand`.
macro_rules! division_operators {
    ($T:ident<$IdT:ident>, $Operand:ty) => {
        $crate::high_level::integers::operators::encrypted_operator!(
            $T<$IdT>,
            Div,
            div,
            DivAssign,
            div_assign,
            try_div,
            $Operand
        );
        $crate::high_level::integers::operators::encrypted_operator!(
            $T<$IdT>,
            Rem,
            rem,
            RemAssign,
            rem_assign,
            try_rem,
            $Operand
        );
    };
}
pub(crate) use division_operators;

/// `clear op x` and `&clear op x` for one width: the commutative operators swap
/// their operands, `clear - x` is [`FheUint::try_sub_from`].
macro_rules! clear_left_operators {
    ($id:ty, $clear:ty) => {
        $crate::high_level::integers::operators::clear_left_operators!(@type FheUint, $id, $clear);
    };
    (@type $T:ident, $id:ty, $clear:ty) => {
        $crate::high_level::integers::operators::clear_left_operators!(@commutative $T, $id, $clear,
            Add add, Mul mul, BitAnd bitand, BitOr bitor, BitXor bitxor);

        impl std::ops::Sub<&$crate::high_level::$T<$id>> for $clear {
            type Output = $crate::high_level::$T<$id>;
            #[track_caller]
            fn sub(self, rhs: &$crate::high_level::$T<$id>) -> Self::Output {
                $crate::high_level::internals::expect_op(rhs.try_sub_from(self), "sub")
            }
        }

        impl std::ops::Sub<$crate::high_level::$T<$id>> for $clear {
            type Output = $crate::high_level::$T<$id>;
            #[track_caller]
            fn sub(self, rhs: $crate::high_level::$T<$id>) -> Self::Output {
                self - &rhs
            }
        }

        $crate::high_level::integers::operators::clear_left_operators!(@borrowed $T, $id, $clear,
            Add add, Sub sub, Mul mul, BitAnd bitand, BitOr bitor, BitXor bitxor);
    };
    (@borrowed $T:ident, $id:ty, $clear:ty, $($Op:ident $op:ident),*) => {$(
        impl std::ops::$Op<&$crate::high_level::$T<$id>> for &$clear {
            type Output = $crate::high_level::$T<$id>;
            #[track_caller]
            fn $op(self, rhs: &$crate::high_level::$T<$id>) -> Self::Output {
                std::ops::$Op::$op(*self, rhs)
            }
        }

        impl std::ops::$Op<$crate::high_level::$T<$id>> for &$clear {
            type Output = $crate::high_level::$T<$id>;
            #[track_caller]
            fn $op(self, rhs: $crate::high_level::$T<$id>) -> Self::Output {
                std::ops::$Op::$op(*self, &rhs)
            }
        }
    )*};
    (@commutative $T:ident, $id:ty, $clear:ty, $($Op:ident $op:ident),*) => {$(
        impl std::ops::$Op<&$crate::high_level::$T<$id>> for $clear {
            type Output = $crate::high_level::$T<$id>;
            #[track_caller]
            fn $op(self, rhs: &$crate::high_level::$T<$id>) -> Self::Output {
                std::ops::$Op::$op(rhs, self)
            }
        }

        impl std::ops::$Op<$crate::high_level::$T<$id>> for $clear {
            type Output = $crate::high_level::$T<$id>;
            #[track_caller]
            fn $op(self, rhs: $crate::high_level::$T<$id>) -> Self::Output {
                std::ops::$Op::$op(&rhs, self)
            }
        }
    )*};
}
pub(crate) use clear_left_operators;

/// A unary operator on owned and borrowed values.
macro_rules! unary_operator {
    ($Op:ident, $op:ident, $try:ident, $T:ty $(, $Id:ident: $IdT:ident)?) => {
        impl$(<$Id: $IdT>)? $Op for &$T {
            type Output = $T;
            #[track_caller]
            fn $op(self) -> $T {
                $crate::high_level::internals::expect_op(self.$try(), stringify!($op))
            }
        }

        impl$(<$Id: $IdT>)? $Op for $T {
            type Output = $T;
            #[track_caller]
            fn $op(self) -> $T {
                (&self).$op()
            }
        }
    };
}

pub(crate) use unary_operator;

/// [`FheEq`], [`FheOrd`], [`FheMin`] and [`FheMax`] for `$T<Id>`, through its
/// `compare` and `binary` methods, with right operands `$Operand` (a comparand: the
/// operand and where a clear one lies with respect to the range of the type).
macro_rules! comparison_traits {
    ($T:ident<$IdT:ident>, $Operand:ty) => {
        impl<'r, Id: $IdT, R: Into<$Operand>> FheEq<R> for $T<Id> {
            fn try_eq(&self, other: R) -> Result<FheBool> {
                let other = other.into();
                self.compare(other.1.op(CmpOp::Eq), other.0)
            }

            fn try_ne(&self, other: R) -> Result<FheBool> {
                let other = other.into();
                self.compare(other.1.op(CmpOp::Ne), other.0)
            }
        }

        impl<'r, Id: $IdT, R: Into<$Operand>> FheOrd<R> for $T<Id> {
            fn try_lt(&self, other: R) -> Result<FheBool> {
                let other = other.into();
                self.compare(other.1.op(CmpOp::Lt), other.0)
            }

            fn try_le(&self, other: R) -> Result<FheBool> {
                let other = other.into();
                self.compare(other.1.op(CmpOp::Le), other.0)
            }

            fn try_gt(&self, other: R) -> Result<FheBool> {
                let other = other.into();
                self.compare(other.1.op(CmpOp::Gt), other.0)
            }

            fn try_ge(&self, other: R) -> Result<FheBool> {
                let other = other.into();
                self.compare(other.1.op(CmpOp::Ge), other.0)
            }
        }

        impl<'r, Id: $IdT, R: Into<$Operand>> FheMin<R> for $T<Id> {
            type Output = $T<Id>;

            fn try_min(&self, other: R) -> Result<$T<Id>> {
                self.binary(BinaryOp::Min, other.into().0)
            }
        }

        impl<'r, Id: $IdT, R: Into<$Operand>> FheMax<R> for $T<Id> {
            type Output = $T<Id>;

            fn try_max(&self, other: R) -> Result<$T<Id>> {
                self.binary(BinaryOp::Max, other.into().0)
            }
        }
    };
}
pub(crate) use comparison_traits;

/// A trait taking `self` by value, for owned and borrowed receivers of `$T<Id>`.
macro_rules! by_value_receivers {
    ($T:ident<$IdT:ident>, $Trait:ident, $Rhs:ty, $try:ident, |$x:ident, $rhs:ident| $body:expr, $Out:ty) => {
        impl<'r, Id: $IdT, R: Into<$Rhs>> $Trait<R> for &$T<Id> {
            type Output = $T<Id>;

            fn $try(self, rhs: R) -> Result<$Out> {
                let ($x, $rhs) = (self, rhs.into().0);
                $body
            }
        }

        impl<'r, Id: $IdT, R: Into<$Rhs>> $Trait<R> for $T<Id> {
            type Output = $T<Id>;

            fn $try(self, rhs: R) -> Result<$Out> {
                (&self).$try(rhs)
            }
        }
    };
}

/// [`RotateLeft`], [`RotateRight`] and their `*Assign` forms for `$T<Id>`, amounts
/// `$Shift`.
macro_rules! rotations {
    ($T:ident<$IdT:ident>, $Shift:ty) => {
        $crate::high_level::integers::operators::by_value_receivers!(
            $T<$IdT>,
            RotateLeft,
            $Shift,
            try_rotate_left,
            |x, amount| x.binary(BinaryOp::RotateLeft, amount),
            $T<Id>
        );
        $crate::high_level::integers::operators::by_value_receivers!(
            $T<$IdT>,
            RotateRight,
            $Shift,
            try_rotate_right,
            |x, amount| x.binary(BinaryOp::RotateRight, amount),
            $T<Id>
        );

        impl<'r, Id: $IdT, R: Into<$Shift>> RotateLeftAssign<R> for $T<Id> {
            #[track_caller]
            fn rotate_left_assign(&mut self, amount: R) {
                *self = (&*self).rotate_left(amount);
            }
        }

        impl<'r, Id: $IdT, R: Into<$Shift>> RotateRightAssign<R> for $T<Id> {
            #[track_caller]
            fn rotate_right_assign(&mut self, amount: R) {
                *self = (&*self).rotate_right(amount);
            }
        }
    };
}
pub(crate) use {by_value_receivers, rotations};

/// [`OverflowingAdd`], [`OverflowingSub`] and [`OverflowingMul`] for `$T<Id>`, through
/// its `overflowing` method, with right operands `$Operand`.
macro_rules! overflowing_traits {
    ($T:ident<$IdT:ident>, $Operand:ty) => {
        $crate::high_level::integers::operators::overflowing_traits!(@one $T<$IdT>, $Operand, OverflowingAdd, try_overflowing_add, Add);
        $crate::high_level::integers::operators::overflowing_traits!(@one $T<$IdT>, $Operand, OverflowingSub, try_overflowing_sub, Sub);
        $crate::high_level::integers::operators::overflowing_traits!(@one $T<$IdT>, $Operand, OverflowingMul, try_overflowing_mul, Mul);
    };
    (@one $T:ident<$IdT:ident>, $Operand:ty, $Trait:ident, $try:ident, $op:ident) => {
        $crate::high_level::integers::operators::by_value_receivers!(
            $T<$IdT>,
            $Trait,
            $Operand,
            $try,
            |x, rhs| x.overflowing(BinaryOp::$op, rhs, Flag::Overflow),
            ($T<Id>, FheBool)
        );
    };
}
pub(crate) use overflowing_traits;

/// `std::iter::Sum` of owned and borrowed `$T<Id>` through `$T::sum_of`.
macro_rules! iter_sum {
    ($T:ident<$IdT:ident>) => {
        impl<Id: $IdT> std::iter::Sum for $T<Id> {
            /// The wrapping sum as one circuit (see `sum`).
            ///
            /// # Panics
            ///
            /// If the sum fails: no server key on this thread, or values of different
            /// keys.
            #[track_caller]
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                let values: Vec<Self> = iter.collect();
                let refs: Vec<&Self> = values.iter().collect();
                $crate::high_level::internals::expect_op($T::sum_of(&refs), "sum")
            }
        }

        impl<'a, Id: $IdT> std::iter::Sum<&'a $T<Id>> for $T<Id> {
            /// The wrapping sum as one circuit (see `sum`).
            ///
            /// # Panics
            ///
            /// If the sum fails: no server key on this thread, or values of different
            /// keys.
            #[track_caller]
            fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
                let refs: Vec<&Self> = iter.collect();
                $crate::high_level::internals::expect_op($T::sum_of(&refs), "sum")
            }
        }
    };
}
pub(crate) use iter_sum;

/// The `try_` forms of `- * & | ^ <<`, whose circuits are the same on unsigned and
/// two's complement values, for a type with a `binary(op, operand)` method: right
/// operands `$Operand`, shift amounts `$Shift`.
macro_rules! try_binary_methods {
    ($Operand:ty, $Shift:ty) => {
        /// `self - rhs`, wrapping; `Err` on failure (see `try_add`).
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{FheInt8, FheUint8};
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
        /// let (a, b) = (FheUint8::encrypt(5u8, &client_key), FheInt8::encrypt(5i8, &client_key));
        /// let unsigned: u8 = a.try_sub(7u8).unwrap().decrypt(&client_key);
        /// let signed: i8 = b.try_sub(&FheInt8::encrypt(7i8, &client_key)).unwrap().decrypt(&client_key);
        /// assert_eq!((unsigned, signed), (5u8.wrapping_sub(7), -2));
        /// ```
        pub fn try_sub<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::Sub, rhs.into().0)
        }

        /// `self * rhs`, wrapping; `Err` on failure.
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{FheInt8, FheUint8};
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
        /// let (a, b) = (FheUint8::encrypt(100u8, &client_key), FheInt8::encrypt(-100i8, &client_key));
        /// let unsigned: u8 = a.try_mul(3u8).unwrap().decrypt(&client_key);
        /// let signed: i8 = b.try_mul(&FheInt8::encrypt(-1i8, &client_key)).unwrap().decrypt(&client_key);
        /// assert_eq!((unsigned, signed), (100u8.wrapping_mul(3), 100));
        /// ```
        pub fn try_mul<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::Mul, rhs.into().0)
        }

        /// `self & rhs`; `Err` on failure.
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{FheInt8, FheUint8};
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
        /// let (a, b) = (FheUint8::encrypt(0b1100u8, &client_key), FheInt8::encrypt(-1i8, &client_key));
        /// let unsigned: u8 = a.try_bitand(0b1010u8).unwrap().decrypt(&client_key);
        /// let signed: i8 = b.try_bitand(0x0Fi8).unwrap().decrypt(&client_key);
        /// assert_eq!((unsigned, signed), (0b1000, 0x0F));
        /// ```
        pub fn try_bitand<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::BitAnd, rhs.into().0)
        }

        /// `self | rhs`; `Err` on failure.
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{FheInt8, FheUint8};
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
        /// let (a, b) = (FheUint8::encrypt(0b1100u8, &client_key), FheInt8::encrypt(i8::MIN, &client_key));
        /// let unsigned: u8 = a.try_bitor(0b1010u8).unwrap().decrypt(&client_key);
        /// let signed: i8 = b.try_bitor(1i8).unwrap().decrypt(&client_key);
        /// assert_eq!((unsigned, signed), (0b1110, i8::MIN | 1));
        /// ```
        pub fn try_bitor<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::BitOr, rhs.into().0)
        }

        /// `self ^ rhs`; `Err` on failure.
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{FheInt8, FheUint8};
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
        /// let (a, b) = (FheUint8::encrypt(0b1100u8, &client_key), FheInt8::encrypt(-1i8, &client_key));
        /// let unsigned: u8 = a.try_bitxor(0b1010u8).unwrap().decrypt(&client_key);
        /// let signed: i8 = b.try_bitxor(5i8).unwrap().decrypt(&client_key);
        /// assert_eq!((unsigned, signed), (0b0110, -1 ^ 5));
        /// ```
        pub fn try_bitxor<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::BitXor, rhs.into().0)
        }

        /// `self << amount` (the amount modulo the width); `Err` on failure.
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{FheInt8, FheUint8};
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// # let config = gpufhe::ConfigBuilder::default()
        /// #     .with_insecure_custom_parameters(TEST_PARAMS)
        /// #     .unwrap();
        /// let (client_key, server_key) = gpufhe::generate_keys(config);
        /// gpufhe::set_server_key(server_key);
        /// let (a, b) = (FheUint8::encrypt(0b1011u8, &client_key), FheInt8::encrypt(-3i8, &client_key));
        /// let unsigned: u8 = a.try_shl(5u32).unwrap().decrypt(&client_key);
        /// let signed: i8 = b.try_shl(9u32).unwrap().decrypt(&client_key); // 9 mod 8 = 1
        /// assert_eq!((unsigned, signed), (0b1011u8 << 5, -6));
        /// ```
        pub fn try_shl<'r>(&self, amount: impl Into<$Shift>) -> Result<Self> {
            self.binary(BinaryOp::Shl, amount.into().0)
        }
    };
}
pub(crate) use try_binary_methods;

/// [`DivRem`] for `&$T<Id>`, through the inherent `try_div_rem`. Not for an owned
/// `$T<Id>`: `x.div_rem(&y)` would then take the trait's by-value method before the
/// inherent `div_rem(&self)` and move `x`.
macro_rules! div_rem_trait {
    ($T:ident<$IdT:ident>, $Operand:ty) => {
        impl<'r, Id: $IdT, R: Into<$Operand>> DivRem<R> for &$T<Id> {
            type Output = ($T<Id>, $T<Id>);

            fn try_div_rem(self, rhs: R) -> Result<Self::Output> {
                $T::try_div_rem(self, rhs)
            }
        }
    };
}
pub(crate) use div_rem_trait;

/// [`OverflowingNeg`] for owned and borrowed `$T<Id>`: the negation, and the
/// comparison of `self` with `$edge` (a clear operand) by `$op`.
macro_rules! overflowing_neg_trait {
    ($T:ident<$IdT:ident>, $op:expr, $edge:expr) => {
        impl<Id: $IdT> OverflowingNeg for &$T<Id> {
            type Output = $T<Id>;

            fn try_overflowing_neg(self) -> Result<($T<Id>, FheBool)> {
                let flag = self.compare($op, OperandKind::Clear($edge))?;
                Ok((self.try_neg()?, flag))
            }
        }

        impl<Id: $IdT> OverflowingNeg for $T<Id> {
            type Output = $T<Id>;

            fn try_overflowing_neg(self) -> Result<($T<Id>, FheBool)> {
                (&self).try_overflowing_neg()
            }
        }
    };
}
pub(crate) use overflowing_neg_trait;
