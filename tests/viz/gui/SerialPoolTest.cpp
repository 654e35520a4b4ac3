// serialPool: owned by the application, one job at a time, and deleting it (what
// ~QCoreApplication does) waits for the job still running — the property that keeps a Z3 check
// from outliving main() (fathom-gui --screenshot exited with SIGFPE when it returned early).
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

#include "viz/gui/SerialPool.h"

namespace fathom::viz {
namespace {

TEST(SerialPool, IsOwnedByTheApplicationAndRunsOneJobAtATime) {
  QPointer<QThreadPool> slot;
  QThreadPool& pool = serialPool(slot);
  EXPECT_EQ(pool.parent(), QCoreApplication::instance());
  EXPECT_EQ(pool.maxThreadCount(), 1);
  EXPECT_EQ(&serialPool(slot), &pool);
  delete slot.data();
}

TEST(SerialPool, DeletingItWaitsForTheRunningJobAndTheSlotGetsAFreshPool) {
  QPointer<QThreadPool> slot;
  std::atomic<bool> started = false, finished = false;
  QThreadPool* first = &serialPool(slot);
  auto future = QtConcurrent::run(first, [&] {
    started = true;
    QThread::msleep(300);
    finished = true;
  });
  while (!started) QThread::msleep(1);
  delete first;  // as the application's destructor deletes its children
  EXPECT_TRUE(finished) << "the pool went before its job ended";
  EXPECT_TRUE(slot.isNull());
  EXPECT_NE(&serialPool(slot), nullptr);
  EXPECT_EQ(slot->parent(), QCoreApplication::instance());
  delete slot.data();
}

}  // namespace
}  // namespace fathom::viz
