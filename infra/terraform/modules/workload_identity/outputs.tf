output "api_role_arn" {
  description = "IAM role of the api (annotate ServiceAccount jacobian-api with eks.amazonaws.com/role-arn)."
  value       = aws_iam_role.api.arn
}

output "runner_role_arn" {
  description = "IAM role of the runners (annotate ServiceAccount jacobian-runner with eks.amazonaws.com/role-arn)."
  value       = aws_iam_role.runner.arn
}

output "checker_role_arn" {
  description = "IAM role of the checker (annotate ServiceAccount jacobian-checker with eks.amazonaws.com/role-arn); the only principal allowed to write verification records."
  value       = aws_iam_role.checker.arn
}
