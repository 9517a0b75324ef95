"""Array access the searches' inner loops need and numba does not offer: loads and stores
without the negative-index wraparound, a cache prefetch, the lowest set bit in one
instruction. numba inlines each into the compiled search that calls it."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def prefetch(typingctx, arr, idx):  # pragma: no cover - compiled
    """Hint the CPU to fetch ``arr[idx]`` into cache (no fault if ``idx`` is off the array)."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])  # read, keep, data
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def load(typingctx, arr, idx):  # pragma: no cover - compiled
    """``arr[idx]`` for an ``idx`` known to be on the array: no negative-index wraparound."""
    sig = arr.dtype(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        return builder.load(cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False))

    return sig, codegen


@intrinsic
def store(typingctx, arr, idx, val):  # pragma: no cover - compiled
    """``arr[idx] = val`` for an ``idx`` known to be on the array (``val`` cast to its type)."""
    sig = types.void(arr, idx, val)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        builder.store(context.cast(builder, args[2], signature.args[2], aryty.dtype), ptr)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):  # pragma: no cover - compiled
    """The index of the lowest set bit of ``x`` (``x`` != 0): one instruction (tzcnt)."""
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen
