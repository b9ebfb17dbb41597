use std::sync::Arc;

use rangeread::tool::{Dialect, DialectTool, ToolItem};
use rangeread::Workspace;
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
use rmcp::model::{
    InitializeResult, ListToolsResult, PaginatedRequestParams, ResourceContents,
    ServerCapabilities, Tool,
};
use rmcp::{service::RequestContext, ErrorData, RoleServer, ServerHandler, ServiceExt};

#[derive(Clone)]
struct Server(Arc<DialectTool>);

impl ServerHandler for Server {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // Name, description and input schema come from the dialect.
        let def = self.0.definition();
        let tool = Tool::new(def.name, def.description, Arc::new(def.input_schema));
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        call: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if call.name != self.0.dialect().name {
            return Err(ErrorData::invalid_params(
                format!("unknown tool {}", call.name),
                None,
            ));
        }
        let tool = self.0.clone();
        let args = serde_json::Value::Object(call.arguments.unwrap_or_default());
        // File reads block: keep them off the async runtime.
        let r = tokio::task::spawn_blocking(move || tool.respond(args))
            .await
            .expect("read task");
        // The whole answer, in order: text, images and files sent whole, the notes
        // (what was left out, where to continue).
        let blocks: Vec<ContentBlock> = (r.items().into_iter())
            .map(|item| match item {
                ToolItem::Text(t) => ContentBlock::text(t),
                ToolItem::Media(m) if m.mime_type.starts_with("image/") => {
                    ContentBlock::image(m.data.clone(), m.mime_type.clone())
                }
                ToolItem::Media(m) => ContentBlock::resource(
                    ResourceContents::blob(
                        m.data.clone(),
                        format!("file:///{}", m.name.trim_start_matches('/')),
                    )
                    .with_mime_type(m.mime_type.clone()),
                ),
            })
            .collect();
        let mut result = if r.is_error {
            CallToolResult::error(blocks)
        } else {
            CallToolResult::success(blocks)
        };
        result.structured_content = r.structured;
        Ok(result.into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Any preset: "read_file" (every spelling), "claude-code", "codex", "vault", ...
    let ws = Workspace::builder(".")
        .protect_all([".env*", "*.pem", "secrets/"])
        .build()?;
    let tool = DialectTool::new(Dialect::preset("read_file")?).workspace(ws);
    Server(Arc::new(tool))
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
