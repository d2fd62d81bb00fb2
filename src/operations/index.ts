import type { Operation } from "./operation";
import { searchValidations } from "./catalog/search-validations";
import { listValidations } from "./catalog/list-validations";
import { getValidation } from "./catalog/get-validation";
import { recommendChecks } from "./catalog/recommend-checks";
import { compareChecks } from "./catalog/compare-checks";
import { listValidationSets } from "./catalog/list-validation-sets";
import { getValidationSet } from "./catalog/get-validation-set";
import { describeJobRequest } from "./catalog/describe-job-request";
import { listErrors } from "./catalog/list-errors";
import { explainError } from "./catalog/explain-error";
import { getOpenApi } from "./catalog/get-openapi";
import { signup } from "./account/signup";
import { getOrg } from "./account/get-org";
import { listKeys } from "./account/list-keys";
import { getCredits } from "./account/get-credits";
import { mintKey } from "./account/mint-key";
import { rotateKey } from "./account/rotate-key";
import { changePlan } from "./account/change-plan";
import { listPlans } from "./account/list-plans";
import { revokeKey } from "./account/revoke-key";
import { deleteKey } from "./account/delete-key";
import { addMember } from "./members/add-member";
import { listMembers } from "./members/list-members";
import { inviteMember } from "./members/invite-member";
import { openInvitation } from "./members/open-invitation";
import { acceptInvitation } from "./members/accept-invitation";
import { changeMemberRole } from "./members/change-member-role";
import { removeMember } from "./members/remove-member";
import { leaveOrganization } from "./members/leave-organization";
import { requestSignInLink } from "./session/request-sign-in-link";
import { completeSignIn } from "./session/complete-sign-in";
import { startOidcSignIn } from "./session/oidc-start";
import { completeOidcSignIn } from "./session/oidc-callback";
import { getSession } from "./session/get-session";
import { switchOrganization } from "./session/switch-organization";
import { signOut } from "./session/sign-out";
import { requestDeviceCode } from "./device/request-device-code";
import { exchangeDeviceCode } from "./device/exchange-device-code";
import { checkJobRequest } from "./jobs/check-job-request";
import { estimateJob } from "./jobs/estimate-job";
import { runJob } from "./jobs/run-job";
import { listJobs } from "./jobs/list-jobs";
import { getJob } from "./jobs/get-job";
import { getJobEmail } from "./jobs/get-job-email";
import { awaitEmailJob } from "./jobs/await-email-job";
import { listEmailClients } from "./jobs/list-email-clients";
import { discoverPages } from "./sites/discover-pages";
import { runSite } from "./runs/run-site";
import { getRun } from "./runs/get-run";
import { listRuns } from "./runs/list-runs";
import { listProjects } from "./runs/list-projects";
import { setBaseline } from "./runs/set-baseline";
import { configureProject } from "./runs/configure-project";
import { getCapture } from "./captures/get-capture";
import { getSharedCapture } from "./captures/get-shared-capture";
import { fetchCapture } from "./captures/fetch-capture";
import { runPlayground } from "./playground/run-playground";
import { getPlaygroundRun } from "./playground/get-playground-run";
import { getPlaygroundScreenshot } from "./playground/get-playground-screenshot";
import { getFeedbackDue } from "./feedback/get-feedback-due";
import { getFeedbackQuestions } from "./feedback/get-feedback-questions";
import { submitFeedback } from "./feedback/submit-feedback";
import { getFeedback } from "./feedback/get-feedback";
import { createWebhook } from "./webhooks/create-webhook";
import { listWebhooks } from "./webhooks/list-webhooks";
import { deleteWebhook } from "./webhooks/delete-webhook";
import { rotateWebhookSecret } from "./webhooks/rotate-webhook-secret";
import { listWebhookDeliveries } from "./webhooks/list-webhook-deliveries";
import { replayWebhookDelivery } from "./webhooks/replay-webhook-delivery";

/** Every operation, once. The HTTP app, the MCP server, OpenAPI, llms-full.txt and docs/api.md fold over it. */
export const operations: readonly Operation[] = [
  searchValidations,
  listValidations,
  getValidation,
  recommendChecks,
  compareChecks,
  listValidationSets,
  getValidationSet,
  describeJobRequest,
  checkJobRequest,
  listErrors,
  explainError,
  getOpenApi,
  signup,
  requestSignInLink,
  completeSignIn,
  startOidcSignIn,
  completeOidcSignIn,
  getSession,
  switchOrganization,
  signOut,
  requestDeviceCode,
  exchangeDeviceCode,
  estimateJob,
  runJob,
  listJobs,
  getJob,
  getJobEmail,
  awaitEmailJob,
  runSite,
  getRun,
  listRuns,
  listProjects,
  setBaseline,
  configureProject,
  getCapture,
  getSharedCapture,
  fetchCapture,
  listEmailClients,
  discoverPages,
  runPlayground,
  getPlaygroundRun,
  getPlaygroundScreenshot,
  getCredits,
  listKeys,
  getOrg,
  mintKey,
  rotateKey,
  changePlan,
  listPlans,
  revokeKey,
  deleteKey,
  addMember,
  listMembers,
  inviteMember,
  openInvitation,
  acceptInvitation,
  changeMemberRole,
  removeMember,
  leaveOrganization,
  getFeedbackDue,
  getFeedbackQuestions,
  submitFeedback,
  getFeedback,
  createWebhook,
  listWebhooks,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  replayWebhookDelivery,
];
