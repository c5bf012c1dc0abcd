//! The seal of the expansion's proofs: every trait the assertions ask that is not an `unsafe
//! trait` ([`FromDriver`](crate::FromDriver), [`ByValue`](crate::ByValue)) has [`Seal`] as a
//! supertrait, which no other crate can name, so no other crate can implement it: a
//! `impl __private::Produced for Flag {}` on a `bool` newtype does not compile.

/// Implemented only in this crate, once per sealed trait (`Mark` tells them apart, so that the
/// impls of two traits never overlap).
pub trait Seal<Mark> {}

/// The seal of [`CPointer`](super::CPointer).
#[derive(Debug)]
pub struct CPointerMark;
/// The seal of [`CPointerSlot`](super::CPointerSlot).
#[derive(Debug)]
pub struct CPointerSlotMark;
/// The seal of [`CFn`](super::CFn).
#[derive(Debug)]
pub struct CFnMark;
/// The seal of [`Produced`](super::Produced).
#[derive(Debug)]
pub struct ProducedMark;
/// The seal of [`WriteThrough`](super::WriteThrough).
#[derive(Debug)]
pub struct WriteThroughMark;
/// The seal of [`InteriorMutable`](super::InteriorMutable).
#[derive(Debug)]
pub struct InteriorMutableMark;
/// The seal of [`InvalidValues`](super::InvalidValues).
#[derive(Debug)]
pub struct InvalidValuesMark;
/// The seal of [`CSlot`](super::CSlot).
#[derive(Debug)]
pub struct CSlotMark;
/// The seal of [`Pointee`](super::Pointee).
#[derive(Debug)]
pub struct PointeeMark;
