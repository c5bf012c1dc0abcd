#!/usr/bin/env python3
"""Records what the real device answers to the queries the simulated driver serves.

Run on the GPU machine (tests/device/run.sh calls it; no build needed):
    python3 tests/device/record-device.py > $OUT/device-0.tsv
The output becomes tests/ground-truth/device-0.tsv, from which the simulator answers
cuDeviceGetAttribute, cuDeviceGetName, cuDeviceTotalMem and the rest for its one device. Each
line: query, argument, status, value. Attribute names come from the toolkit's cuda.h.
"""
import ctypes
import re
import sys

cuda = ctypes.CDLL("libcuda.so.1")
header = open("/usr/local/cuda/include/cuda.h").read()
body = re.search(r"typedef enum CUdevice_attribute_enum \{(.*?)\} CUdevice_attribute;", header, re.S).group(1)
names = {}
for name, value in re.findall(r"(CU_DEVICE_ATTRIBUTE_\w+)\s*=\s*(\d+)", body):
    names.setdefault(int(value), name)  # the first name of a value (later ones are aliases)

def check(rc, what):
    if rc != 0:
        sys.exit(f"{what} answered {rc}")

check(cuda.cuInit(0), "cuInit")
version = ctypes.c_int()
check(cuda.cuDriverGetVersion(ctypes.byref(version)), "cuDriverGetVersion")
dev = ctypes.c_int()
check(cuda.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
print("# what device 0 answered; driver version", version.value)
print("query\targument\tstatus\tvalue")
name = ctypes.create_string_buffer(256)
print("cuDeviceGetName\t256\t%d\t%s" % (cuda.cuDeviceGetName(name, 256, dev), name.value.decode()))
total = ctypes.c_size_t()
print("cuDeviceTotalMem_v2\t-\t%d\t%d" % (cuda.cuDeviceTotalMem_v2(ctypes.byref(total), dev), total.value))
major, minor = ctypes.c_int(), ctypes.c_int()
print("cuDeviceComputeCapability\t-\t%d\t%d.%d" % (cuda.cuDeviceComputeCapability(ctypes.byref(major), ctypes.byref(minor), dev), major.value, minor.value))
bus = ctypes.create_string_buffer(64)
print("cuDeviceGetPCIBusId\t64\t%d\t%s" % (cuda.cuDeviceGetPCIBusId(bus, 64, dev), bus.value.decode()))
count = ctypes.c_int()
print("cuDeviceGetCount\t-\t%d\t%d" % (cuda.cuDeviceGetCount(ctypes.byref(count)), count.value))
for attribute in range(1, max(names) + 2):
    value = ctypes.c_int()
    rc = cuda.cuDeviceGetAttribute(ctypes.byref(value), attribute, dev)
    print("cuDeviceGetAttribute\t%d\t%d\t%d\t%s" % (attribute, rc, value.value if rc == 0 else 0, names.get(attribute, "-")))
ctx = ctypes.c_void_p()
check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
least, greatest = ctypes.c_int(), ctypes.c_int()
print("cuCtxGetStreamPriorityRange\t-\t%d\t%d %d" % (cuda.cuCtxGetStreamPriorityRange(ctypes.byref(least), ctypes.byref(greatest)), least.value, greatest.value))
for code in list(range(0, 1000)):
    text = ctypes.c_char_p()
    label = ctypes.c_char_p()
    rc1 = cuda.cuGetErrorName(code, ctypes.byref(label))
    rc2 = cuda.cuGetErrorString(code, ctypes.byref(text))
    if rc1 == 0 or rc2 == 0:
        print("cuGetErrorName\t%d\t%d\t%s" % (code, rc1, label.value.decode() if rc1 == 0 else ""))
        print("cuGetErrorString\t%d\t%d\t%s" % (code, rc2, text.value.decode() if rc2 == 0 else ""))
