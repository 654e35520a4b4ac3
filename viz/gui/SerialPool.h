// serialPool: a one-thread QThreadPool for work that must not overlap (one Z3 check at a time,
// one interpreter operation at a time), owned by the QCoreApplication. Ownership is the point:
// ~QCoreApplication deletes it, and ~QThreadPool waits for the job still running, so no worker
// outlives main() into the static destructors (Z3's global memory manager goes there, and a
// check still asserting into it died with SIGFPE when fathom-gui --screenshot returned early).
// A later QCoreApplication (tests make several) gets a fresh pool: the slot is a QPointer.
//
//   static QPointer<QThreadPool> slot;
//   QtConcurrent::run(&serialPool(slot), job);
#pragma once

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

namespace fathom::viz {

inline QThreadPool& serialPool(QPointer<QThreadPool>& slot) {
  if (!slot) {
    slot = new QThreadPool(QCoreApplication::instance());
    slot->setMaxThreadCount(1);
  }
  return *slot;
}

}  // namespace fathom::viz
