/** Every workflow the worker runs; the worker's bundle is built from this file. */
export { mathTaskWorkflow } from './mathTask/workflow';
export { importMathRunWorkflow } from './importMathRun/workflow';
export { genomicsTaskWorkflow } from './genomicsTask/workflow';
export { importGenomicsBundleWorkflow } from './importGenomicsBundle/workflow';
export { webhookEndpointWorkflow } from './webhookEndpoint/workflow';
export { exportWorkflow } from './export/workflow';
