DROP TABLE webhook_executions;
DROP TABLE triggered_webhooks;
DROP TABLE webhooks;
