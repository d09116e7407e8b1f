# None of these outputs carries the AUTH token; the token lives only in the Secrets Manager secret
# (and, as for every Terraform-managed secret, in the state, which must be stored encrypted).

output "primary_endpoint_host" {
  description = "Host name of the primary endpoint (REDIS_HOST)."
  value       = aws_elasticache_replication_group.redis.primary_endpoint_address
}

output "port" {
  description = "Port Redis listens on, with TLS (REDIS_PORT)."
  value       = local.port
}

output "redis_url_secret_arn" {
  description = "ARN of the Secrets Manager secret holding the full rediss:// URL with the AUTH token."
  value       = aws_secretsmanager_secret.redis_url.arn
}

output "security_group_id" {
  description = "Security group attached to the cache nodes."
  value       = aws_security_group.redis.id
}
