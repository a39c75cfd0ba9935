export * from './fake-server';
export { FakeStripe, type FakeStripeOptions, type StripeMeterEvent } from './fake-stripe';
export { FakeChargebee, type FakeChargebeeOptions } from './fake-chargebee';
export { FakeRecurly, type FakeRecurlyOptions } from './fake-recurly';
export { FakeZuora, type FakeZuoraOptions } from './fake-zuora';
export { FakeWebhookReceiver, type FakeWebhookReceiverOptions, type ReceivedEvent } from './fake-webhook-receiver';
