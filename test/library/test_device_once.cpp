/// Host test of cutlass::once_per_device (cutlass/device_once.h): one computation per device id
/// and call site, its result returned from then on; ids without a cache slot compute every time.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "cutlass/device_once.h"

namespace {

std::atomic<int> calls{0};

int value_for(int device) {
  return cutlass::once_per_device(device, [device] {
    ++calls;
    return 100 + device;
  });
}

TEST(DeviceOnce, ComputesOncePerDeviceAndRemembers) {
  calls = 0;
  EXPECT_EQ(100, value_for(0));
  EXPECT_EQ(100, value_for(0));
  EXPECT_EQ(103, value_for(3));
  EXPECT_EQ(103, value_for(3));
  EXPECT_EQ(2, calls.load()) << "one computation per device id";
  // past the cached ids: computed at every call
  EXPECT_EQ(100 + cutlass::kOnceCachedDevices, value_for(cutlass::kOnceCachedDevices));
  EXPECT_EQ(100 + cutlass::kOnceCachedDevices, value_for(cutlass::kOnceCachedDevices));
  EXPECT_EQ(99, value_for(-1));
  EXPECT_EQ(5, calls.load());
}

TEST(DeviceOnce, ConcurrentFirstCallsComputeOnce) {
  calls = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) threads.emplace_back([] { EXPECT_EQ(107, value_for(7)); });
  for (std::thread &t : threads) t.join();
  EXPECT_EQ(1, calls.load());
}

TEST(DeviceOnce, EachCallSiteHasItsOwnCache) {
  int const a = cutlass::once_per_device(5, [] { return 1; });
  int const b = cutlass::once_per_device(5, [] { return 2; });
  EXPECT_EQ(1, a);
  EXPECT_EQ(2, b);
}

}  // namespace
