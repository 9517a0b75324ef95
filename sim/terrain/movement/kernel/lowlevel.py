"""Array access the searches' inner loops need and numba does not offer: loads and stores
without the negative-index wraparound, a raw pointer to an array's data, a cache prefetch, the
lowest set bit in one instruction. numba inlines each into the compiled search that calls it."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _item(context, builder, aryty, ary, idx):
    """The address of item ``idx`` of an array or a pointer, unchecked."""
    if isinstance(aryty, types.CPointer):
        return builder.gep(ary, [idx])
    ary = context.make_array(aryty)(context, builder, ary)
    return cgutils.get_item_pointer(context, builder, aryty, ary, [idx], wraparound=False)


@intrinsic
def pointer(typingctx, arr):  # pragma: no cover - compiled
    """The data of a contiguous array as a raw pointer (``p[i]`` reads and writes ``arr[i]``,
    unchecked). A search's loop hands its arrays to its inlined helpers this way: numba counts
    references on every array a call is given (an atomic increment and decrement per call, which
    the pruning pass leaves in loops as large as a search's), never on a pointer. Valid while
    the array is held (an argument of the calling function, or a variable used after)."""
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@intrinsic
def prefetch(typingctx, arr, idx):  # pragma: no cover - compiled
    """Hint the CPU to fetch ``arr[idx]`` into cache (no fault if ``idx`` is off the array);
    ``arr`` an array or a :func:`pointer`."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        ptr = _item(context, builder, signature.args[0], args[0], args[1])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])  # read, keep, data
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def load(typingctx, arr, idx):  # pragma: no cover - compiled
    """``arr[idx]`` for an ``idx`` known to be on the array: no negative-index wraparound
    (``arr`` an array or a :func:`pointer`)."""
    sig = arr.dtype(arr, idx)

    def codegen(context, builder, signature, args):
        return builder.load(_item(context, builder, signature.args[0], args[0], args[1]))

    return sig, codegen


@intrinsic
def store(typingctx, arr, idx, val):  # pragma: no cover - compiled
    """``arr[idx] = val`` for an ``idx`` known to be on the array (``val`` cast to its type)."""
    sig = types.void(arr, idx, val)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ptr = _item(context, builder, aryty, args[0], args[1])
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
