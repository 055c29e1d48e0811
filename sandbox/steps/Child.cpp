// The sandbox child: the ordered steps of Steps.h, nothing else.
#include <unistd.h>

#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox::detail {

void childMain(const LaunchPlan& plan) {
  if (!userNamespaceEarly(plan)) ::_exit(125);
  if (!mountFilesystem(plan)) ::_exit(125);
  bool userNs = false;
  if (!userNamespaceLate(plan, &userNs)) ::_exit(125);
  if (!processSetup(plan)) ::_exit(125);
  if (!applyRlimits(plan)) ::_exit(125);
  bool landlock = false;
  if (!applyLandlock(plan, &landlock)) ::_exit(125);
  if (!loadSeccomp(plan)) ::_exit(125);
  std::uint32_t layers = (userNs ? kLayerUserNs : 0u) | (landlock ? kLayerLandlock : 0u);
  runInitAndPayload(plan, layers);
}

}  // namespace greenlight::sandbox::detail
